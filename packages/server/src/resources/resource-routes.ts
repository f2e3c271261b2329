import {
  changeReasonError,
  changeReasonHeader,
  decodeChangeReason,
  monitorMay,
  resourceAccess,
} from "@trialdesk/domain";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ChangeContext } from "../audit/audit";
import { userName } from "../auth/guards";
import type { Deps } from "../deps";
import { sendCsv } from "../http/csv";
import { send } from "../http/envelope";
import { badRequest } from "../http/errors";
import { answers, csvAnswer, formatSchema, listPage } from "../http/openapi-responses";
import type { ResourceDescription, Row } from "./resource-definition";
import { type ResourceService, resourceService } from "./resource-service";

/**
 * Who changes what and why, for the audit trail. The reason is the `x-change-reason` header,
 * percent-encoded by clients (browsers send only Latin-1 headers); one over 500 characters is refused
 * (400), never cut (issue 46, point 1). Whether a change needs one is the service's to say.
 */
export function changeContext(request: FastifyRequest): ChangeContext {
  const raw = request.headers[changeReasonHeader];
  const reason = decodeChangeReason(typeof raw === "string" ? raw : null);
  const refused = changeReasonError(reason, false);
  if (refused) throw badRequest(refused);
  const monitor = request.user?.kind === "monitor";
  return {
    userId: monitor ? null : (request.user?.id ?? null),
    monitorId: monitor ? (request.user?.id ?? null) : null,
    userName: userName(request.user),
    requestId: request.id,
    reason,
  };
}

const uuidParams = z.object({ uuid: z.string() });

/** What a resource answers, for /api/docs only: a list page in its list format, one record in its view. */
export function resourceAnswers(service: {
  def: Pick<ResourceDescription, "table" | "expand" | "listFormat">;
  formats: ResourceService["formats"];
}) {
  const { def, formats } = service;
  const record = (format: string) => formatSchema(formats[format].fields, def.table, Boolean(def.expand));
  return { page: listPage(record(def.listFormat ?? "view")), record: record("view") };
}
const idParams = z.object({ id: z.string().describe("uuid or numeric id") });

/** The routes of a described resource under /api/{name}: list, export, get, create, update, delete. */
export function registerResource<Input extends Row>(
  fastify: FastifyInstance,
  deps: Deps,
  def: ResourceDescription<Input>,
) {
  // Params and query strings typed from their schemas.
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = resourceService(deps.db, def);
  const base = `/api/${def.name}`;
  const access = resourceAccess(def.name);
  // Which routes answer monitors (issue 44): the registry's, within the resource's monitor view.
  const monitors = {
    read: Boolean(def.monitors) && monitorMay(def.name, "read"),
    write: Boolean(def.monitors) && monitorMay(def.name, "write"),
  };
  const tags = [def.name];
  const { page, record } = resourceAnswers(service);
  const formatNote = `Other shapes: ?format=${Object.keys(service.formats).join(", ")}.`;

  app.get(
    base,
    {
      config: { access: access.list, monitors: monitors.read },
      schema: {
        querystring: service.listQuery,
        tags,
        description: `A page of the list. ${formatNote}`,
        response: answers(page),
      },
      onRequest: async (request) => {
        request.query = service.withPreset(request.query) as typeof request.query;
      },
    },
    async (request, reply) =>
      send(request, reply, await service.list(request.query, request.user, deps.config.defaultPageSize)),
  );
  app.get(
    `${base}/export`,
    {
      config: { access: access.list, monitors: monitors.read },
      schema: {
        querystring: service.exportQuery,
        tags,
        response: csvAnswer,
      },
      onRequest: async (request) => {
        request.query = service.withPreset(request.query) as typeof request.query;
      },
    },
    async (request, reply) => {
      const { header, batches } = await service.export(
        request.query,
        request.user,
        deps.config.exportBatchRows,
      );
      return sendCsv(reply, def.name, header, batches);
    },
  );
  app.get(
    `${base}/:id`,
    {
      config: { access: access.get, monitors: monitors.read },
      schema: {
        params: idParams,
        querystring: service.getQuery,
        tags,
        description: `One record. ${formatNote}`,
        response: answers(record),
        ...(access.get === "public" ? { security: [] } : {}),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return send(request, reply, await service.get(id, request.query, request.user));
    },
  );
  app.post(
    base,
    {
      config: { access: access.write, monitors: monitors.write },
      schema: { body: def.schema, tags, response: answers(record, 201) },
    },
    async (request, reply) =>
      send(request, reply, await service.create(request.body, request.user, changeContext(request)), 201),
  );
  app.put(
    `${base}/:uuid`,
    {
      config: { access: access.write, monitors: monitors.write },
      schema: { params: uuidParams, body: def.schema, tags, response: answers(record) },
    },
    async (request, reply) => {
      const { uuid } = request.params;
      return send(
        request,
        reply,
        await service.update(uuid, request.body, request.user, changeContext(request)),
      );
    },
  );
  app.delete(
    `${base}/:uuid`,
    {
      config: { access: access.write, monitors: monitors.write },
      schema: { params: uuidParams, tags, response: answers(z.object({ deleted: z.literal(true) })) },
    },
    async (request, reply) => {
      const { uuid } = request.params;
      await service.remove(uuid, request.user, changeContext(request));
      return send(request, reply, { deleted: true });
    },
  );
  return service;
}
