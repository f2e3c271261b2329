import type { Db } from "../db/client";
import { resourceContext } from "./resource-context";
import type { ResourceDescription, Row } from "./resource-definition";
import { resourceExport } from "./resource-export";
import { resourceGet } from "./resource-get";
import { resourceList } from "./resource-list";
import { resourceWrite } from "./resource-write";

/**
 * The operations of one described resource; routes call them, and so may custom routes. Each seam
 * has its file: the list (resource-list.ts), the CSV export (resource-export.ts), the read of one
 * record (resource-get.ts) and the writes (resource-write.ts), over what they share
 * (resource-context.ts).
 */
export function resourceService<Input extends Row>(db: Db, def: ResourceDescription<Input>) {
  const context = resourceContext(db, def);
  const { listQuery, withPreset, listWhere, listOrder, list } = resourceList(context);
  const { exportQuery, export: exportCsv } = resourceExport(context, { listQuery, listWhere, listOrder });
  const { getQuery, get } = resourceGet(context);
  return {
    def,
    formats: context.formats,
    scopeOf: context.scopeOf,
    forCaller: context.forCaller,
    hidden: context.hidden,
    listQuery,
    withPreset,
    exportQuery,
    getQuery,
    readOne: context.readOne,
    list,
    export: exportCsv,
    get,
    ...resourceWrite(context),
  };
}

export type ResourceService = ReturnType<typeof resourceService>;
