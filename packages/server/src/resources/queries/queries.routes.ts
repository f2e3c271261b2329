import {
  queryMessages as messages,
  type QueryStatus,
  queryMessageSchema,
  statusAfterMessage,
} from "@trialdesk/domain";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { recordAudit } from "../../audit/audit";
import { currentUser, userName } from "../../auth/guards";
import type { Deps } from "../../deps";
import { send } from "../../http/envelope";
import { conflict, notFound, validationError } from "../../http/errors";
import { answers } from "../../http/openapi-responses";
import { changeContext, parseBody, resourceAnswers, resourceService } from "../resource";
import { queriesResource } from "./queries.resource";
import { queries, queryMessages } from "./queries.table";

/**
 * POST /api/queries/{uuid}/messages {text}: a message in a query's thread, from the site (staff of the
 * visit's site, or an administrator), which answers it (ANSWERED), or from its monitor, which asks
 * again (OPEN). A closed query takes none (409). Audited as a change of the query.
 */
export function queryRoutes(fastify: FastifyInstance, deps: Deps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = resourceService(deps.db, queriesResource);
  app.post(
    "/api/queries/:uuid/messages",
    {
      config: { monitors: true },
      schema: {
        params: z.object({ uuid: z.string().max(80) }),
        body: queryMessageSchema,
        tags: ["queries"],
        response: answers(resourceAnswers(service).record, 201),
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { uuid } = request.params;
      const text = parseBody(queryMessageSchema, request.body).text.trim();
      if (!text) throw validationError({ text: messages.messageRequired });
      const from = user.kind === "monitor" ? "monitor" : "site";
      const change = changeContext(request);
      await deps.db.transaction(async (tx) => {
        const [query] = await tx
          .select({ id: queries.id, status: queries.status })
          .from(queries)
          .where(and(eq(queries.uuid, uuid), service.scopeOf(user)))
          .for("update");
        if (!query) throw notFound("Query not found");
        const status = statusAfterMessage(query.status as QueryStatus, from);
        if (status === null) throw conflict(messages.closed);
        await tx.insert(queryMessages).values({
          queryId: query.id,
          authorKind: from,
          authorId: user.id,
          authorName: userName(user) ?? user.email,
          text,
        });
        await tx
          .update(queries)
          .set({ status, version: sql`${queries.version} + 1`, updatedAt: sql`now()` })
          .where(eq(queries.id, query.id));
        await recordAudit(tx, change, {
          resource: "queries",
          uuid,
          action: "update",
          changes: [
            { field: "message", old: null, new: text },
            ...(status === query.status ? [] : [{ field: "status", old: query.status, new: status }]),
          ],
        });
      });
      return send(request, reply, await service.get(uuid, {}, user), 201);
    },
  );
}
