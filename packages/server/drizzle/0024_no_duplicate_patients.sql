-- No duplicate patients (issue 46, point 4; docs/decisions.md, "No duplicate patients"). A new or
-- edited patient is checked against the others in its save, under advisory locks
-- (patients.resource.ts): an SSN another patient has is refused, a name and birth date another
-- patient of the site has is asked first. These indexes answer both checks. Nothing here changes or
-- refuses data already stored (no unique index): patients that share an SSN or a name today stay as
-- they are, and their other changes still save.
-- ssn_fold is the one definition of an SSN compared: lower case, with spaces and punctuation left
-- out, so "123 456 789", "123-456-789" and "123456789" are one SSN; nothing left is no SSN (null).
CREATE FUNCTION "ssn_fold"(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT nullif(regexp_replace(lower(value), '[^0-9a-z]', '', 'g'), '')
$$;--> statement-breakpoint
CREATE INDEX "patients_ssn_fold_idx" ON "patients" USING btree (ssn_fold("ssn"));--> statement-breakpoint
CREATE INDEX "patients_same_name_idx" ON "patients" USING btree ("recorder_site_id","birth_date",search_fold(btrim("last_name")),search_fold(btrim("first_name")));