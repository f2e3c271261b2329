import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Deps } from "../../deps";
import { send } from "../../http/envelope";
import { answers } from "../../http/openapi-responses";
import { resourceAnswers, resourceService } from "../resource";
import { studiesResource } from "../studies/studies.resource";
import { visitsResource } from "./visits.resource";

const params = z.object({ uuid: z.string() });

/**
 * GET /api/studies/{studyUuid}/visits (spec §7): the visits of one study, paged and searchable like
 * GET /api/visits (page 1 size 100 from the editors).
 */
export function studyVisitsRoutes(fastify: FastifyInstance, deps: Deps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const studies = resourceService(deps.db, studiesResource);
  const visits = resourceService(deps.db, visitsResource);
  app.get(
    "/api/studies/:uuid/visits",
    // The visits list's parameters; a studyId given there is overridden by the path's study.
    {
      config: { monitors: true },
      schema: {
        params,
        querystring: visits.listQuery,
        tags: ["studies"],
        response: answers(resourceAnswers(visits).page),
      },
    },
    async (request, reply) => {
      const { uuid } = request.params;
      // 404 "Study not found" when there is no such study.
      const study = await studies.get(uuid, {}, request.user);
      const query = { ...request.query, studyId: String(study.id) };
      return send(request, reply, await visits.list(query, request.user, deps.config.defaultPageSize));
    },
  );
}
