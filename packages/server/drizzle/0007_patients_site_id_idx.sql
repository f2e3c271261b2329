DROP INDEX "patients_recorder_site_id_idx";--> statement-breakpoint
CREATE INDEX "patients_recorder_site_id_idx" ON "patients" USING btree ("recorder_site_id","id");