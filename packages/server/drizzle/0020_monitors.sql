CREATE TABLE "monitor_assignments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "monitor_assignments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"monitor_id" integer NOT NULL,
	"study_id" integer NOT NULL,
	"site_ids" integer[] DEFAULT '{}' NOT NULL,
	"access_from" date NOT NULL,
	"access_to" date NOT NULL,
	"notes" varchar(2000),
	CONSTRAINT "monitor_assignments_dates_check" CHECK ("monitor_assignments"."access_to" >= "monitor_assignments"."access_from")
);
--> statement-breakpoint
CREATE TABLE "queries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "queries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"patient_visit_id" integer NOT NULL,
	"study_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"text" varchar(2000) NOT NULL,
	"status" varchar(10) DEFAULT 'OPEN' NOT NULL,
	"opened_by" integer,
	"opened_by_name" varchar(120),
	CONSTRAINT "queries_status_check" CHECK ("queries"."status" in ('OPEN', 'ANSWERED', 'CLOSED'))
);
--> statement-breakpoint
CREATE TABLE "query_messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "query_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"query_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"author_kind" varchar(10) NOT NULL,
	"author_id" integer,
	"author_name" varchar(120) NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "query_messages_author_kind_check" CHECK ("query_messages"."author_kind" in ('monitor', 'site'))
);
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "monitor_id" integer;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "monitor_id" integer;--> statement-breakpoint
ALTER TABLE "patient_visits" ADD COLUMN "sdv_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patient_visits" ADD COLUMN "sdv_verified_by" integer;--> statement-breakpoint
ALTER TABLE "patient_visits" ADD COLUMN "sdv_verified_by_name" varchar(120);--> statement-breakpoint
ALTER TABLE "patient_visits" ADD COLUMN "sdv_reopened" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "study_patients" ADD COLUMN "sdv_selected" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "study_patients" ADD COLUMN "sdv_swapped" varchar(3);--> statement-breakpoint
ALTER TABLE "monitor_assignments" ADD CONSTRAINT "monitor_assignments_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_assignments" ADD CONSTRAINT "monitor_assignments_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queries" ADD CONSTRAINT "queries_patient_visit_id_patient_visits_id_fk" FOREIGN KEY ("patient_visit_id") REFERENCES "public"."patient_visits"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queries" ADD CONSTRAINT "queries_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queries" ADD CONSTRAINT "queries_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queries" ADD CONSTRAINT "queries_opened_by_monitors_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."monitors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "query_messages" ADD CONSTRAINT "query_messages_query_id_queries_id_fk" FOREIGN KEY ("query_id") REFERENCES "public"."queries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "monitor_assignments_uuid_unique" ON "monitor_assignments" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "monitor_assignments_monitor_id_study_id_idx" ON "monitor_assignments" USING btree ("monitor_id","study_id");--> statement-breakpoint
CREATE INDEX "monitor_assignments_study_id_idx" ON "monitor_assignments" USING btree ("study_id");--> statement-breakpoint
CREATE UNIQUE INDEX "queries_uuid_unique" ON "queries" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "queries_patient_visit_id_idx" ON "queries" USING btree ("patient_visit_id");--> statement-breakpoint
CREATE INDEX "queries_opened_by_idx" ON "queries" USING btree ("opened_by");--> statement-breakpoint
CREATE INDEX "queries_site_id_status_idx" ON "queries" USING btree ("site_id","status","id");--> statement-breakpoint
CREATE INDEX "queries_study_id_status_idx" ON "queries" USING btree ("study_id","status","id");--> statement-breakpoint
CREATE INDEX "query_messages_query_id_idx" ON "query_messages" USING btree ("query_id","id");--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_visits" ADD CONSTRAINT "patient_visits_sdv_verified_by_monitors_id_fk" FOREIGN KEY ("sdv_verified_by") REFERENCES "public"."monitors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refresh_tokens_monitor_id_idx" ON "refresh_tokens" USING btree ("monitor_id");--> statement-breakpoint
CREATE INDEX "patient_visits_verified_study_id_idx" ON "patient_visits" USING btree ("study_id") WHERE "patient_visits"."sdv_verified_at" is not null;--> statement-breakpoint
CREATE INDEX "patient_visits_sdv_verified_by_idx" ON "patient_visits" USING btree ("sdv_verified_by") WHERE "patient_visits"."sdv_verified_by" is not null;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_account_check" CHECK (num_nonnulls("refresh_tokens"."user_id", "refresh_tokens"."monitor_id") = 1);--> statement-breakpoint
ALTER TABLE "study_patients" ADD CONSTRAINT "study_patients_sdv_swapped_check" CHECK ("study_patients"."sdv_swapped" in ('IN', 'OUT'));