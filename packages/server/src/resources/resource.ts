/**
 * THE generic resource machinery (design §3). A resource is described once — table, domain schema,
 * validator, list columns, search, filters, presets, formats (resource-definition.ts); its name,
 * uuid prefix, label and access are the domain's registry's — and gets list / export / get / create /
 * update / delete (resource-service.ts, composed of resource-list, -export, -get and -write.ts;
 * resource-routes.ts) with field-error validation, optimistic versions, and an audit event per change
 * written in the same transaction; query strings become SQL in resource-query.ts. Nested resources
 * (patients, projects, users, studyplans) plug in through the optional hooks instead of new machinery.
 */
export * from "./resource-definition";
export * from "./resource-query";
export * from "./resource-routes";
export * from "./resource-service";
