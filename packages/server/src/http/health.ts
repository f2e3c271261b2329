import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Deps } from "../deps";
import { databaseUnavailableCode } from "./database-errors";
import { failure, send } from "./envelope";
import { answers } from "./openapi-responses";

/** How long the health check waits for the database before answering 503. */
export const healthTimeoutMs = 2000;

/**
 * GET /api/health, for load balancers and orchestrators: public and without data; 200 when the
 * database answers within 2 s, else 503.
 */
export function healthRoutes(app: FastifyInstance, { db }: Pick<Deps, "db">) {
  app.get(
    "/api/health",
    {
      config: { access: "public" },
      schema: { tags: ["session"], security: [], response: answers(z.object({ status: z.literal("ok") })) },
    },
    async (request, reply) => {
      let timer: NodeJS.Timeout | undefined;
      const answered = await Promise.race([
        db.execute(sql`select 1`).then(
          () => true,
          () => false,
        ),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), healthTimeoutMs);
        }),
      ]);
      clearTimeout(timer);
      if (answered) return send(request, reply, { status: "ok" });
      return reply.code(503).send(
        failure(request, {
          message: "The database is not answering",
          code: databaseUnavailableCode,
          detail: null,
        }),
      );
    },
  );
}
