CREATE TABLE "protocol_deviations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "protocol_deviations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"site_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"study_id" integer NOT NULL,
	"study_patient_id" integer NOT NULL,
	"visit_id" integer,
	"patient_visit_id" integer,
	"kind" varchar(30) NOT NULL,
	"source" varchar(10) NOT NULL,
	"detected_on" date NOT NULL,
	"days_outside" integer,
	"description" varchar(2000) NOT NULL,
	"severity" varchar(10) DEFAULT 'MINOR' NOT NULL,
	"status" varchar(10) DEFAULT 'OPEN' NOT NULL,
	"reported_on" date,
	"corrective_action" varchar(2000),
	"closed_on" date,
	"no_longer_applies" boolean DEFAULT false NOT NULL,
	CONSTRAINT "protocol_deviations_kind_check" CHECK ("protocol_deviations"."kind" in ('OUT_OF_WINDOW', 'MISSED_VISIT', 'INFORMED_CONSENT', 'ELIGIBILITY', 'INVESTIGATIONAL_PRODUCT', 'PROCEDURE', 'OTHER')),
	CONSTRAINT "protocol_deviations_source_check" CHECK ("protocol_deviations"."source" in ('AUTOMATIC', 'MANUAL')),
	CONSTRAINT "protocol_deviations_severity_check" CHECK ("protocol_deviations"."severity" in ('MINOR', 'MAJOR')),
	CONSTRAINT "protocol_deviations_status_check" CHECK ("protocol_deviations"."status" in ('OPEN', 'REPORTED', 'CLOSED', 'WITHDRAWN'))
);
--> statement-breakpoint
ALTER TABLE "visit_schedule" DROP CONSTRAINT "visit_schedule_kind_check";--> statement-breakpoint
DROP INDEX "patient_visits_patient_id_study_id_visit_id_unique";--> statement-breakpoint
ALTER TABLE "visit_schedule" drop column "cell";--> statement-breakpoint
ALTER TABLE "visit_schedule" ADD COLUMN "cell" text GENERATED ALWAYS AS (visit_id::text
  || case kind when 'done' then 'a' when 'out-of-window' then 'b' when 'booked' then 'c' when 'open' then 'd' when 'not-applicable' then 'e' when 'unscheduled' then 'f' when 'missed' then 'g' end
  || coalesce((expected_date - date '2025-01-01')::text, '')
  || case when visit_date is null then '' when visit_date = expected_date then ':'
       else ':' || (visit_date - coalesce(expected_date, date '2025-01-01'))::text end
  || case when booked_outside_window then '!' else '' end) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "protocol_deviations" ADD CONSTRAINT "protocol_deviations_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "protocol_deviations" ADD CONSTRAINT "protocol_deviations_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "protocol_deviations" ADD CONSTRAINT "protocol_deviations_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "protocol_deviations" ADD CONSTRAINT "protocol_deviations_study_patient_id_study_patients_id_fk" FOREIGN KEY ("study_patient_id") REFERENCES "public"."study_patients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "protocol_deviations" ADD CONSTRAINT "protocol_deviations_visit_id_visits_id_fk" FOREIGN KEY ("visit_id") REFERENCES "public"."visits"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "protocol_deviations" ADD CONSTRAINT "protocol_deviations_patient_visit_id_patient_visits_id_fk" FOREIGN KEY ("patient_visit_id") REFERENCES "public"."patient_visits"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "protocol_deviations_uuid_unique" ON "protocol_deviations" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "protocol_deviations_automatic_unique" ON "protocol_deviations" USING btree ("study_patient_id","visit_id","kind") WHERE "protocol_deviations"."source" = 'AUTOMATIC';--> statement-breakpoint
CREATE INDEX "protocol_deviations_site_id_detected_on_idx" ON "protocol_deviations" USING btree ("site_id","detected_on","id");--> statement-breakpoint
CREATE INDEX "protocol_deviations_patient_id_idx" ON "protocol_deviations" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "protocol_deviations_study_id_idx" ON "protocol_deviations" USING btree ("study_id");--> statement-breakpoint
CREATE INDEX "protocol_deviations_visit_id_idx" ON "protocol_deviations" USING btree ("visit_id");--> statement-breakpoint
CREATE INDEX "protocol_deviations_patient_visit_id_idx" ON "protocol_deviations" USING btree ("patient_visit_id");--> statement-breakpoint
CREATE INDEX "patient_visits_patient_id_study_id_visit_id_idx" ON "patient_visits" USING btree ("patient_id","study_id","visit_id");--> statement-breakpoint
ALTER TABLE "visit_schedule" ADD CONSTRAINT "visit_schedule_kind_check" CHECK ("visit_schedule"."kind" in ('done', 'out-of-window', 'booked', 'open', 'not-applicable', 'unscheduled', 'missed'));