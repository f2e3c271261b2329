import { queryStatusValues } from "@trialdesk/domain";
import { index, integer, pgTable, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { fkIndex, oneOf, recordColumns, ref, requiredRef, uuidUnique } from "../../db/columns";
import { monitors } from "../monitors/monitors.table";
import { patientVisits } from "../patient-visits/patient-visits.table";
import { sites } from "../sites/sites.table";
import { studies } from "../studies/studies.table";

/**
 * A monitor's query on a patient visit (issue 44). The visit's study and its patient's site are kept
 * on the row, so the scopes of staff (site) and monitors (study and site) read it without a join.
 * A visit with queries is not deleted: they are part of its record.
 */
export const queries = pgTable(
  "queries",
  {
    ...recordColumns(),
    patientVisitId: requiredRef(() => patientVisits.id),
    studyId: requiredRef(() => studies.id),
    siteId: requiredRef(() => sites.id),
    text: varchar({ length: 2000 }).notNull(),
    status: varchar({ length: 10 }).notNull().default("OPEN"),
    openedBy: ref(() => monitors.id, "set null"),
    openedByName: varchar({ length: 120 }),
  },
  (t) => [
    uuidUnique("queries", t.uuid),
    oneOf("queries", "status", t.status, queryStatusValues),
    fkIndex("queries", "patient_visit_id", t.patientVisitId),
    fkIndex("queries", "opened_by", t.openedBy),
    // A site's queries by status (the worklist's and home page's counts, the list's filter).
    index("queries_site_id_status_idx").on(t.siteId, t.status, t.id),
    index("queries_study_id_status_idx").on(t.studyId, t.status, t.id),
  ],
);

/** The thread of a query: who wrote what, when. Append-only like the audit trail. */
export const queryMessages = pgTable(
  "query_messages",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    queryId: requiredRef(() => queries.id, "cascade"),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    authorKind: varchar({ length: 10 }).notNull(),
    authorId: integer(),
    authorName: varchar({ length: 120 }).notNull(),
    text: text().notNull(),
  },
  (t) => [
    index("query_messages_query_id_idx").on(t.queryId, t.id),
    oneOf("query_messages", "author_kind", t.authorKind, ["monitor", "site"]),
  ],
);
