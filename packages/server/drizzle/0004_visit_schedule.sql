CREATE TABLE "visit_schedule" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "visit_schedule_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"study_patient_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"study_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"active" boolean NOT NULL,
	"visit_id" integer NOT NULL,
	"sequence" integer,
	"expected_date" date,
	"window_start" date,
	"window_end" date,
	"kind" varchar(20) NOT NULL,
	"booked_outside_window" boolean DEFAULT false NOT NULL,
	"patient_visit_id" integer,
	"visit_date" date,
	"visit_status" varchar(10),
	CONSTRAINT "visit_schedule_kind_check" CHECK ("visit_schedule"."kind" in ('done', 'out-of-window', 'booked', 'open', 'not-applicable', 'unscheduled'))
);
--> statement-breakpoint
ALTER TABLE "visit_schedule" ADD CONSTRAINT "visit_schedule_study_patient_id_study_patients_id_fk" FOREIGN KEY ("study_patient_id") REFERENCES "public"."study_patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_schedule" ADD CONSTRAINT "visit_schedule_patient_visit_id_patient_visits_id_fk" FOREIGN KEY ("patient_visit_id") REFERENCES "public"."patient_visits"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "visit_schedule_study_patient_id_visit_id_unique" ON "visit_schedule" USING btree ("study_patient_id","visit_id");--> statement-breakpoint
CREATE INDEX "visit_schedule_study_id_idx" ON "visit_schedule" USING btree ("study_id");--> statement-breakpoint
CREATE INDEX "visit_schedule_patient_visit_id_idx" ON "visit_schedule" USING btree ("patient_visit_id");--> statement-breakpoint
CREATE INDEX "visit_schedule_worklist_end_idx" ON "visit_schedule" USING btree ("site_id","window_end","id") WHERE "visit_schedule"."active" and "visit_schedule"."sequence" is not null and "visit_schedule"."kind" not in ('done', 'not-applicable');--> statement-breakpoint
CREATE INDEX "visit_schedule_worklist_start_idx" ON "visit_schedule" USING btree ("site_id","window_start") WHERE "visit_schedule"."active" and "visit_schedule"."sequence" is not null and "visit_schedule"."kind" not in ('done', 'not-applicable');