DROP INDEX "study_patients_study_id_patient_id_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "study_patients_active_study_id_patient_id_unique" ON "study_patients" USING btree ("study_id","patient_id") WHERE "study_patients"."active";--> statement-breakpoint
CREATE INDEX "study_patients_screen_nr_trgm" ON "study_patients" USING gin ("screen_nr" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "study_patients_random_nr_trgm" ON "study_patients" USING gin ("random_nr" gin_trgm_ops);