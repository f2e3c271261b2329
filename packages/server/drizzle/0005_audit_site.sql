ALTER TABLE "audit_events" ADD COLUMN "site_id" integer;
--> statement-breakpoint
-- The history written so far of patient data gets its patient's site, so the site scope applies to it
-- too (also for deleted records, through the values the history kept). The append-only trigger is
-- paused for this one backfill only.
ALTER TABLE "audit_events" DISABLE TRIGGER "audit_events_no_update_delete";
--> statement-breakpoint
UPDATE "audit_events" a SET "site_id" = coalesce(
  (SELECT p."recorder_site_id" FROM "patients" p WHERE p."uuid" = a."uuid"),
  (SELECT (coalesce(c->>'new', c->>'old'))::integer FROM jsonb_array_elements(a."changes") c
    WHERE c->>'field' = 'recorderSiteId' AND coalesce(c->>'new', c->>'old') ~ '^[0-9]{1,9}$' LIMIT 1)
) WHERE a."resource" = 'patients';
--> statement-breakpoint
UPDATE "audit_events" a SET "site_id" = coalesce(
  (SELECT p."recorder_site_id" FROM "study_patients" sp JOIN "patients" p ON p."id" = sp."patient_id"
    WHERE sp."uuid" = a."uuid" AND a."resource" = 'study-patients'),
  (SELECT p."recorder_site_id" FROM "patient_visits" pv JOIN "patients" p ON p."id" = pv."patient_id"
    WHERE pv."uuid" = a."uuid" AND a."resource" = 'patient-visits'),
  (SELECT p."recorder_site_id" FROM jsonb_array_elements(a."changes") c JOIN "patients" p
    ON p."id"::text = coalesce(c->>'new', c->>'old') WHERE c->>'field' = 'patientId' LIMIT 1)
) WHERE a."resource" IN ('study-patients', 'patient-visits');
--> statement-breakpoint
UPDATE "audit_events" a SET "site_id" = (
  SELECT max(b."site_id") FROM "audit_events" b
  WHERE b."resource" = a."resource" AND b."uuid" = a."uuid" AND b."site_id" IS NOT NULL
) WHERE a."site_id" IS NULL AND a."resource" IN ('patients', 'study-patients', 'patient-visits');
--> statement-breakpoint
ALTER TABLE "audit_events" ENABLE TRIGGER "audit_events_no_update_delete";
