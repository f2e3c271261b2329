import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { versionLabel } from "@trialdesk/domain";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/**
 * OpenAPI generated from the same zod schemas the routes declare, at /api/docs. The routes'
 * schemas are for documentation only: validation runs in the resource machinery, where it can
 * answer with the spec's field messages, and answers are sent as the handlers build them.
 */
export async function registerOpenApi(app: FastifyInstance) {
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  // Response schemas describe the answers for clients; they never filter or coerce what is sent.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: "Trialdesk API",
        version: versionLabel,
        description:
          "Every answer is the envelope {header: {result, errorMessage, errorCode, errorDetail, fieldErrors, requestId}, data}.",
      },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs" });
}
