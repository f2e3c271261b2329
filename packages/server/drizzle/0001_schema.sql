CREATE TABLE "addresses" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "addresses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"country_code" varchar(2),
	"city" varchar(50),
	"street_address" varchar(200),
	"postal_code" varchar(20),
	"additional_address_line" varchar(200),
	"address_type" varchar(10) DEFAULT 'DEFAULT' NOT NULL,
	CONSTRAINT "addresses_address_type_check" CHECK ("addresses"."address_type" in ('DEFAULT'))
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"user_name" varchar(120),
	"request_id" varchar(100) NOT NULL,
	"resource" varchar(40) NOT NULL,
	"uuid" varchar(80) NOT NULL,
	"action" varchar(10) NOT NULL,
	"changes" jsonb NOT NULL,
	"reason" varchar(500),
	CONSTRAINT "audit_events_action_check" CHECK ("audit_events"."action" in ('create', 'update', 'delete'))
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "login_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"key" varchar(300) NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitors" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "monitors_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"email" varchar(254) NOT NULL,
	"password_hash" text NOT NULL,
	"first_name" varchar(50) NOT NULL,
	"last_name" varchar(50) NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partners" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "partners_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" varchar(50) NOT NULL,
	"code" varchar(3) NOT NULL,
	"cro" boolean DEFAULT false NOT NULL,
	"sponsor" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patient_contacts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "patient_contacts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"patient_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"contact_type" varchar(5) NOT NULL,
	"value" varchar(60) NOT NULL,
	"notes" varchar(200),
	CONSTRAINT "patient_contacts_contact_type_check" CHECK ("patient_contacts"."contact_type" in ('PHONE', 'EMAIL'))
);
--> statement-breakpoint
CREATE TABLE "patient_visits" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "patient_visits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"patient_id" integer NOT NULL,
	"study_id" integer NOT NULL,
	"visit_id" integer NOT NULL,
	"visit_date" date,
	"visit_time" time,
	"visit_status" varchar(10) DEFAULT 'BOOKED' NOT NULL,
	"visit_result" varchar(10),
	"notes" varchar(2000),
	CONSTRAINT "patient_visits_visit_status_check" CHECK ("patient_visits"."visit_status" in ('BOOKED', 'CANCELLED', 'NO_SHOW', 'ARRIVED', 'COMPLETED')),
	CONSTRAINT "patient_visits_visit_result_check" CHECK ("patient_visits"."visit_result" in ('PENDING', 'OK', 'FAILED'))
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "patients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"barcode" varchar(20) NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"status_details" varchar(200),
	"recorder_site_id" integer NOT NULL,
	"address_id" integer,
	"first_name" varchar(50) NOT NULL,
	"last_name" varchar(50) NOT NULL,
	"ssn" varchar(50),
	"birth_name" varchar(50),
	"birth_date" date,
	"birth_country_code" varchar(2),
	"birth_city" varchar(50),
	"mother_name" varchar(50),
	"sex" varchar(6) DEFAULT 'UNK' NOT NULL,
	"notes" varchar(2000),
	CONSTRAINT "patients_sex_check" CHECK ("patients"."sex" in ('MALE', 'FEMALE', 'UNK'))
);
--> statement-breakpoint
CREATE TABLE "project_sites" (
	"project_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "project_sites_project_id_site_id_pk" PRIMARY KEY("project_id","site_id")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "projects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"working_name" varchar(50) NOT NULL,
	"protocol_nr" varchar(50) NOT NULL,
	"internal_code" varchar(50) NOT NULL,
	"project_status_id" integer NOT NULL,
	"long_name" varchar(200),
	"official_title" varchar(500),
	"official_url" varchar(500),
	"phase" integer NOT NULL,
	"ip_name" varchar(50),
	"therapy_area_id" integer NOT NULL,
	"cro_id" integer NOT NULL,
	"sponsor_id" integer NOT NULL,
	"settlement_days" integer,
	"payment_days" integer,
	"patient_fee" numeric(12, 2),
	"currency" varchar(3),
	"vat" integer,
	"paid_percentage" integer,
	"monitored_percentage" integer,
	"rescreen" boolean DEFAULT false NOT NULL,
	"cohort_handling" boolean DEFAULT false NOT NULL,
	"hospitalisation" boolean DEFAULT false NOT NULL,
	CONSTRAINT "projects_project_status_id_check" CHECK ("projects"."project_status_id" in (10, 20, 30, 40, 50, 100, 110)),
	CONSTRAINT "projects_phase_check" CHECK ("projects"."phase" in (1, 2, 3, 4)),
	CONSTRAINT "projects_currency_check" CHECK ("projects"."currency" in ('HUF', 'EUR', 'USD', 'GBP', 'CHF')),
	CONSTRAINT "projects_vat_check" CHECK ("projects"."vat" in (0, 27)),
	CONSTRAINT "projects_paid_percentage_check" CHECK ("projects"."paid_percentage" between 0 and 100),
	CONSTRAINT "projects_monitored_percentage_check" CHECK ("projects"."monitored_percentage" between 0 and 100),
	CONSTRAINT "projects_settlement_days_check" CHECK ("projects"."settlement_days" between 0 and 999),
	CONSTRAINT "projects_payment_days_check" CHECK ("projects"."payment_days" between 0 and 999)
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "refresh_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"family_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"rotated_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" varchar(100) PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sites_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" varchar(50) NOT NULL,
	"short_name" varchar(50) NOT NULL,
	"code" varchar(5) NOT NULL,
	"barcode_prefix" varchar(5) NOT NULL,
	"address" varchar(200),
	"city" varchar(50),
	"country_code" varchar(2),
	"last_barcode_number" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "sites_barcode_prefix_check" CHECK ("sites"."barcode_prefix" ~ '^[A-Z0-9-]+$')
);
--> statement-breakpoint
CREATE TABLE "studies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "studies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"project_id" integer NOT NULL,
	"variant" varchar(20) NOT NULL,
	"working_name" varchar(80) NOT NULL,
	"fpfv" date NOT NULL,
	"lpfv" date NOT NULL,
	"lplv" date NOT NULL,
	"variant_description" varchar(200),
	"project_status_id" integer NOT NULL,
	CONSTRAINT "studies_variant_check" CHECK ("studies"."variant" in ('NORMAL', 'SECONDARY', 'SUB-STUDY', 'VARIANT-1', 'VARIANT-2')),
	CONSTRAINT "studies_project_status_id_check" CHECK ("studies"."project_status_id" in (10, 20, 30, 40, 50, 100, 110))
);
--> statement-breakpoint
CREATE TABLE "study_patients" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "study_patients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"study_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"screen_nr" varchar(50),
	"random_nr" varchar(50),
	"active" boolean DEFAULT true NOT NULL,
	"start_date" date,
	"started_by" integer,
	"close_date" date,
	"close_reason" varchar(10),
	"closed_by" integer,
	"notes" varchar(2000),
	CONSTRAINT "study_patients_close_reason_check" CHECK ("study_patients"."close_reason" in ('CANCELLED', 'DIED', 'EOS')),
	CONSTRAINT "study_patients_closed_check" CHECK ("study_patients"."active" or "study_patients"."close_reason" is not null)
);
--> statement-breakpoint
CREATE TABLE "studyplan_schedule_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "studyplan_schedule_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"studyplan_id" integer NOT NULL,
	"from_visit_id" integer NOT NULL,
	"to_visit_id" integer,
	"days_from_start" integer DEFAULT 0 NOT NULL,
	"allowed_days_before" integer DEFAULT 0 NOT NULL,
	"allowed_days_after" integer DEFAULT 0 NOT NULL,
	"sequence" integer NOT NULL,
	CONSTRAINT "studyplan_schedule_entries_days_check" CHECK ("studyplan_schedule_entries"."days_from_start" between 0 and 999),
	CONSTRAINT "studyplan_schedule_entries_before_check" CHECK ("studyplan_schedule_entries"."allowed_days_before" between 0 and 99),
	CONSTRAINT "studyplan_schedule_entries_after_check" CHECK ("studyplan_schedule_entries"."allowed_days_after" between 0 and 99)
);
--> statement-breakpoint
CREATE TABLE "studyplans" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "studyplans_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"study_id" integer NOT NULL,
	"calculation_mode" varchar(20) DEFAULT 'default' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "therapy_areas" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "therapy_areas_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" varchar(50) NOT NULL,
	"code" varchar(3) NOT NULL,
	"therapy_category_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "therapy_categories" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "therapy_categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" varchar(50) NOT NULL,
	"code" varchar(3) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_sites" (
	"user_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "user_sites_user_id_site_id_pk" PRIMARY KEY("user_id","site_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"email" varchar(254) NOT NULL,
	"password_hash" text NOT NULL,
	"last_password_change_date" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"first_name" varchar(50) NOT NULL,
	"last_name" varchar(50) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visits" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "visits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"study_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"visit_type_id" integer NOT NULL,
	"mandatory" boolean DEFAULT false NOT NULL,
	CONSTRAINT "visits_visit_type_id_check" CHECK ("visits"."visit_type_id" in (10, 20, 25, 30, 40, 50, 60, 65, 70, 80, 90, 100, 110, 120, 130))
);
--> statement-breakpoint
ALTER TABLE "patient_contacts" ADD CONSTRAINT "patient_contacts_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_visits" ADD CONSTRAINT "patient_visits_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_visits" ADD CONSTRAINT "patient_visits_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_visits" ADD CONSTRAINT "patient_visits_visit_id_visits_id_fk" FOREIGN KEY ("visit_id") REFERENCES "public"."visits"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_recorder_site_id_sites_id_fk" FOREIGN KEY ("recorder_site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_address_id_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."addresses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_sites" ADD CONSTRAINT "project_sites_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_sites" ADD CONSTRAINT "project_sites_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_therapy_area_id_therapy_areas_id_fk" FOREIGN KEY ("therapy_area_id") REFERENCES "public"."therapy_areas"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_cro_id_partners_id_fk" FOREIGN KEY ("cro_id") REFERENCES "public"."partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_sponsor_id_partners_id_fk" FOREIGN KEY ("sponsor_id") REFERENCES "public"."partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_patients" ADD CONSTRAINT "study_patients_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_patients" ADD CONSTRAINT "study_patients_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_patients" ADD CONSTRAINT "study_patients_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_patients" ADD CONSTRAINT "study_patients_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studyplan_schedule_entries" ADD CONSTRAINT "studyplan_schedule_entries_studyplan_id_studyplans_id_fk" FOREIGN KEY ("studyplan_id") REFERENCES "public"."studyplans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studyplan_schedule_entries" ADD CONSTRAINT "studyplan_schedule_entries_from_visit_id_visits_id_fk" FOREIGN KEY ("from_visit_id") REFERENCES "public"."visits"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studyplan_schedule_entries" ADD CONSTRAINT "studyplan_schedule_entries_to_visit_id_visits_id_fk" FOREIGN KEY ("to_visit_id") REFERENCES "public"."visits"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studyplans" ADD CONSTRAINT "studyplans_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "therapy_areas" ADD CONSTRAINT "therapy_areas_therapy_category_id_therapy_categories_id_fk" FOREIGN KEY ("therapy_category_id") REFERENCES "public"."therapy_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sites" ADD CONSTRAINT "user_sites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sites" ADD CONSTRAINT "user_sites_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_resource_uuid_idx" ON "audit_events" USING btree ("resource","uuid","id");--> statement-breakpoint
CREATE INDEX "audit_events_user_id_idx" ON "audit_events" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "login_failures_key_at_idx" ON "login_failures" USING btree ("key","at");--> statement-breakpoint
CREATE UNIQUE INDEX "monitors_uuid_unique" ON "monitors" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "monitors_email_unique" ON "monitors" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "monitors_email_trgm" ON "monitors" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "monitors_first_name_trgm" ON "monitors" USING gin ("first_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "monitors_last_name_trgm" ON "monitors" USING gin ("last_name" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "partners_uuid_unique" ON "partners" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "partners_code_unique" ON "partners" USING btree ("code");--> statement-breakpoint
CREATE INDEX "partners_name_trgm" ON "partners" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "partners_code_trgm" ON "partners" USING gin ("code" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patient_contacts_patient_id_idx" ON "patient_contacts" USING btree ("patient_id","position");--> statement-breakpoint
CREATE INDEX "patient_contacts_value_trgm" ON "patient_contacts" USING gin ("value" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patient_contacts_phone_idx" ON "patient_contacts" USING btree ("patient_id","position") WHERE contact_type = 'PHONE';--> statement-breakpoint
CREATE UNIQUE INDEX "patient_visits_uuid_unique" ON "patient_visits" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "patient_visits_patient_id_study_id_visit_id_unique" ON "patient_visits" USING btree ("patient_id","study_id","visit_id");--> statement-breakpoint
CREATE INDEX "patient_visits_study_id_idx" ON "patient_visits" USING btree ("study_id");--> statement-breakpoint
CREATE INDEX "patient_visits_visit_id_idx" ON "patient_visits" USING btree ("visit_id");--> statement-breakpoint
CREATE INDEX "patient_visits_visit_date_idx" ON "patient_visits" USING btree ("visit_date","id");--> statement-breakpoint
CREATE UNIQUE INDEX "patients_uuid_unique" ON "patients" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "patients_barcode_unique" ON "patients" USING btree ("barcode");--> statement-breakpoint
CREATE UNIQUE INDEX "patients_address_id_unique" ON "patients" USING btree ("address_id");--> statement-breakpoint
CREATE INDEX "patients_recorder_site_id_idx" ON "patients" USING btree ("recorder_site_id");--> statement-breakpoint
CREATE INDEX "patients_name_idx" ON "patients" USING btree ("last_name","first_name","id");--> statement-breakpoint
CREATE INDEX "patients_recorder_site_id_name_idx" ON "patients" USING btree ("recorder_site_id","last_name","first_name","id");--> statement-breakpoint
CREATE INDEX "patients_birth_date_idx" ON "patients" USING btree ("birth_date");--> statement-breakpoint
CREATE INDEX "patients_barcode_trgm" ON "patients" USING gin ("barcode" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patients_first_name_trgm" ON "patients" USING gin ("first_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patients_last_name_trgm" ON "patients" USING gin ("last_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patients_ssn_trgm" ON "patients" USING gin ("ssn" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "project_sites_site_id_idx" ON "project_sites" USING btree ("site_id");--> statement-breakpoint
CREATE UNIQUE INDEX "projects_uuid_unique" ON "projects" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "projects_internal_code_unique" ON "projects" USING btree ("internal_code");--> statement-breakpoint
CREATE INDEX "projects_therapy_area_id_idx" ON "projects" USING btree ("therapy_area_id");--> statement-breakpoint
CREATE INDEX "projects_cro_id_idx" ON "projects" USING btree ("cro_id");--> statement-breakpoint
CREATE INDEX "projects_sponsor_id_idx" ON "projects" USING btree ("sponsor_id");--> statement-breakpoint
CREATE INDEX "projects_protocol_nr_idx" ON "projects" USING btree ("protocol_nr");--> statement-breakpoint
CREATE INDEX "projects_working_name_trgm" ON "projects" USING gin ("working_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "projects_protocol_nr_trgm" ON "projects" USING gin ("protocol_nr" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "projects_internal_code_trgm" ON "projects" USING gin ("internal_code" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_token_hash_unique" ON "refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_id_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_user_id_idx" ON "refresh_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_expires_at_idx" ON "refresh_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sites_uuid_unique" ON "sites" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "sites_code_unique" ON "sites" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "sites_barcode_prefix_unique" ON "sites" USING btree ("barcode_prefix");--> statement-breakpoint
CREATE INDEX "sites_name_trgm" ON "sites" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sites_short_name_trgm" ON "sites" USING gin ("short_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sites_code_trgm" ON "sites" USING gin ("code" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sites_city_trgm" ON "sites" USING gin ("city" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "studies_uuid_unique" ON "studies" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "studies_project_id_variant_unique" ON "studies" USING btree ("project_id","variant");--> statement-breakpoint
CREATE INDEX "studies_project_id_idx" ON "studies" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "studies_working_name_trgm" ON "studies" USING gin ("working_name" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "study_patients_uuid_unique" ON "study_patients" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "study_patients_study_id_patient_id_unique" ON "study_patients" USING btree ("study_id","patient_id");--> statement-breakpoint
CREATE INDEX "study_patients_patient_id_idx" ON "study_patients" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "study_patients_started_by_idx" ON "study_patients" USING btree ("started_by");--> statement-breakpoint
CREATE INDEX "study_patients_closed_by_idx" ON "study_patients" USING btree ("closed_by");--> statement-breakpoint
CREATE INDEX "study_patients_study_id_screen_nr_idx" ON "study_patients" USING btree ("study_id","screen_nr");--> statement-breakpoint
CREATE UNIQUE INDEX "studyplan_schedule_entries_studyplan_id_sequence_unique" ON "studyplan_schedule_entries" USING btree ("studyplan_id","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "studyplan_schedule_entries_studyplan_id_from_visit_id_unique" ON "studyplan_schedule_entries" USING btree ("studyplan_id","from_visit_id");--> statement-breakpoint
CREATE INDEX "studyplan_schedule_entries_from_visit_id_idx" ON "studyplan_schedule_entries" USING btree ("from_visit_id");--> statement-breakpoint
CREATE INDEX "studyplan_schedule_entries_to_visit_id_idx" ON "studyplan_schedule_entries" USING btree ("to_visit_id");--> statement-breakpoint
CREATE UNIQUE INDEX "studyplans_uuid_unique" ON "studyplans" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "studyplans_study_id_unique" ON "studyplans" USING btree ("study_id");--> statement-breakpoint
CREATE UNIQUE INDEX "therapy_areas_uuid_unique" ON "therapy_areas" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "therapy_areas_code_unique" ON "therapy_areas" USING btree ("code");--> statement-breakpoint
CREATE INDEX "therapy_areas_therapy_category_id_idx" ON "therapy_areas" USING btree ("therapy_category_id");--> statement-breakpoint
CREATE INDEX "therapy_areas_name_trgm" ON "therapy_areas" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "therapy_areas_code_trgm" ON "therapy_areas" USING gin ("code" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "therapy_categories_uuid_unique" ON "therapy_categories" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "therapy_categories_code_unique" ON "therapy_categories" USING btree ("code");--> statement-breakpoint
CREATE INDEX "therapy_categories_name_trgm" ON "therapy_categories" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "therapy_categories_code_trgm" ON "therapy_categories" USING gin ("code" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_sites_site_id_idx" ON "user_sites" USING btree ("site_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_uuid_unique" ON "users" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_email_trgm" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_first_name_trgm" ON "users" USING gin ("first_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_last_name_trgm" ON "users" USING gin ("last_name" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "visits_uuid_unique" ON "visits" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "visits_visit_type_id_unique" ON "visits" USING btree ("study_id") WHERE visit_type_id = 50;--> statement-breakpoint
CREATE INDEX "visits_study_id_idx" ON "visits" USING btree ("study_id");--> statement-breakpoint
CREATE INDEX "visits_study_id_name_idx" ON "visits" USING btree ("study_id","name");--> statement-breakpoint
CREATE INDEX "visits_name_trgm" ON "visits" USING gin ("name" gin_trgm_ops);