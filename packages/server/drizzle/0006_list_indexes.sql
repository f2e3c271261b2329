DROP INDEX "patient_visits_visit_date_idx";--> statement-breakpoint
DROP INDEX "patients_name_idx";--> statement-breakpoint
DROP INDEX "patients_recorder_site_id_name_idx";--> statement-breakpoint
CREATE INDEX "study_patients_id_patient_id_idx" ON "study_patients" USING btree ("id","patient_id");--> statement-breakpoint
CREATE INDEX "patient_visits_visit_date_idx" ON "patient_visits" USING btree ("visit_date","visit_time","id","patient_id");--> statement-breakpoint
CREATE INDEX "patients_name_idx" ON "patients" USING btree ("last_name" collate "und-x-icu","first_name" collate "und-x-icu","id");--> statement-breakpoint
CREATE INDEX "patients_recorder_site_id_name_idx" ON "patients" USING btree ("recorder_site_id","last_name" collate "und-x-icu","first_name" collate "und-x-icu","id");