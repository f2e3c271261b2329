import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { appConfig, appConfigSchema } from "./app-config";
import { auditRoutes } from "./audit/audit.routes";
import { authRoutes } from "./auth/auth.routes";
import { registerGuards } from "./auth/guards";
import { refreshTokenStore } from "./auth/refresh-tokens";
import { tokenService } from "./auth/tokens";
import { type Config, trustProxyOption } from "./config";
import type { Db } from "./db/client";
import type { Deps } from "./deps";
import { registerCompression } from "./http/compression";
import { failure } from "./http/envelope";
import { registerErrorHandler } from "./http/error-handler";
import { registerExpensiveCalls } from "./http/expensive-calls";
import { healthRoutes } from "./http/health";
import { loggerOptions } from "./http/logging";
import { registerNoStore } from "./http/no-store";
import { registerOpenApi } from "./http/openapi";
import { clientRequestId, requestId } from "./http/request-id";
import { registerSecurityHeaders } from "./http/security-headers";
import { registerWebApp } from "./http/static";
import { earningsResource } from "./resources/finance/earnings.resource";
import { financeRoutes } from "./resources/finance/finance.routes";
import { paymentsResource } from "./resources/finance/payments.resource";
import { statementsResource } from "./resources/finance/statements.resource";
import { monitorAssignmentsResource } from "./resources/monitor-assignments/monitor-assignments.resource";
import { monitorsResource } from "./resources/monitors/monitors.resource";
import { partnersResource } from "./resources/partners/partners.resource";
import { patientVisitDetailRoutes } from "./resources/patient-visits/patient-visit-detail.routes";
import { patientVisitsResource } from "./resources/patient-visits/patient-visits.resource";
import { sourceVerificationRoutes } from "./resources/patient-visits/source-verification.routes";
import { patientsResource } from "./resources/patients/patients.resource";
import { projectsResource } from "./resources/projects/projects.resource";
import { protocolDeviationsResource } from "./resources/protocol-deviations/protocol-deviations.resource";
import { queriesResource } from "./resources/queries/queries.resource";
import { queryRoutes } from "./resources/queries/queries.routes";
import { registerResource } from "./resources/resource";
import { sitesResource } from "./resources/sites/sites.resource";
import { studiesResource } from "./resources/studies/studies.resource";
import { studyPatientsResource } from "./resources/study-patients/study-patients.resource";
import { studyplansResource } from "./resources/studyplans/studyplans.resource";
import { therapyAreasResource } from "./resources/therapy-areas/therapy-areas.resource";
import { therapyCategoriesResource } from "./resources/therapy-categories/therapy-categories.resource";
import { usersResource } from "./resources/users/users.resource";
import { userRoutes } from "./resources/users/users.routes";
import { visitSummaryRoutes } from "./resources/visit-summary/visit-summary.routes";
import { studyVisitsRoutes } from "./resources/visits/study-visits.routes";
import { visitsResource } from "./resources/visits/visits.resource";
import { worklistRoutes } from "./resources/worklist/worklist.routes";

/** Every described resource, served by the one machinery. */
export const resources = [
  therapyCategoriesResource,
  therapyAreasResource,
  projectsResource,
  sitesResource,
  partnersResource,
  usersResource,
  monitorsResource,
  studiesResource,
  visitsResource,
  patientsResource,
  studyPatientsResource,
  studyplansResource,
  patientVisitsResource,
  protocolDeviationsResource,
  monitorAssignmentsResource,
  queriesResource,
  earningsResource,
  statementsResource,
  paymentsResource,
];

/** The whole HTTP application: used by main.ts and, through inject, by every test. */
export async function buildApp(options: {
  config: Config;
  db: Db;
  logger?: FastifyServerOptions["logger"];
}): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger: loggerOptions(options.logger ?? { level: config.logLevel }),
    genReqId: requestId,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
  });
  const deps: Deps = {
    db,
    config,
    tokens: tokenService(db, { secret: config.tokenSecret, ttlSeconds: config.accessTokenTtlSeconds }),
    refreshTokens: refreshTokenStore(db, config.refreshTokenTtlDays),
  };

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
    const client = clientRequestId(request.raw);
    if (client) request.log = request.log.child({ clientRequestId: client });
  });
  // An empty JSON body (e.g. a DELETE sent with a JSON content type) is no body at all.
  const json = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (body === "" || (typeof body === "string" && body.trim() === "")) return done(null, undefined);
    json(request, String(body), done);
  });

  registerErrorHandler(app);
  registerNoStore(app);
  registerSecurityHeaders(app);
  await app.register(fastifyCookie);
  await registerCompression(app);
  await registerOpenApi(app);
  registerGuards(app, deps);
  // Before the routes: it caps the expensive ones as they are added.
  registerExpensiveCalls(app, deps);

  app.get("/config.json", { schema: { response: { 200: appConfigSchema } } }, async () => appConfig(deps));
  authRoutes(app, deps);
  auditRoutes(app, deps, resources);
  healthRoutes(app, deps);
  for (const resource of resources) registerResource(app, deps, resource as never);
  userRoutes(app, deps);
  studyVisitsRoutes(app, deps);
  patientVisitDetailRoutes(app, deps);
  visitSummaryRoutes(app, deps);
  worklistRoutes(app, deps);
  sourceVerificationRoutes(app, deps);
  queryRoutes(app, deps);
  financeRoutes(app, deps);

  const spa = await registerWebApp(app, config.webDist);
  app.setNotFoundHandler((request, reply) => {
    if (spa(request, reply)) return;
    reply.code(404).send(failure(request, { message: "Not found", code: "NOT_FOUND", detail: null }));
  });
  return app;
}
