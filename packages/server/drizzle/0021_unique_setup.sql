-- No duplicates in study setup (issue 46, point 5): one project per protocol number and one visit of a
-- name per study, both compared trimmed and in any case. A database that already holds such duplicates
-- is not changed here (user data is never rewritten silently): the migration stops, naming them, and
-- the server does not start until they are renamed (decision 211 says how).
DO $$
DECLARE clashes text;
BEGIN
  SELECT string_agg(format('"%s" (project ids %s)', nr, ids), '; ') INTO clashes FROM (
    SELECT min(protocol_nr) AS nr, string_agg(id::text, ', ' ORDER BY id) AS ids
    FROM projects GROUP BY lower(btrim(protocol_nr)) HAVING count(*) > 1) d;
  IF clashes IS NOT NULL THEN
    RAISE EXCEPTION 'Projects share a protocol number: %. Give each project its own, then start again (docs/decisions.md, decision 211).', clashes;
  END IF;
  SELECT string_agg(format('"%s" in study id %s (visit ids %s)', name, study_id, ids), '; ') INTO clashes FROM (
    SELECT study_id, min(name) AS name, string_agg(id::text, ', ' ORDER BY id) AS ids
    FROM visits GROUP BY study_id, lower(btrim(name)) HAVING count(*) > 1) d;
  IF clashes IS NOT NULL THEN
    RAISE EXCEPTION 'Visits of one study share a name: %. Give each visit of a study its own, then start again (docs/decisions.md, decision 211).', clashes;
  END IF;
END $$;
--> statement-breakpoint
CREATE UNIQUE INDEX "projects_protocol_nr_unique" ON "projects" USING btree (lower(btrim("protocol_nr")));--> statement-breakpoint
CREATE UNIQUE INDEX "visits_name_unique" ON "visits" USING btree ("study_id",lower(btrim("name")));
