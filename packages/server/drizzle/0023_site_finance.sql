CREATE TABLE "earnings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "earnings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"project_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"study_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"visit_id" integer NOT NULL,
	"patient_visit_id" integer,
	"service_date" date NOT NULL,
	"currency" varchar(3) NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"held_back" numeric(14, 2) NOT NULL,
	"payable" numeric(14, 2) NOT NULL,
	"reverses_id" integer,
	"voided_at" timestamp with time zone,
	"reversed_at" timestamp with time zone,
	"statement_id" integer,
	"live" boolean DEFAULT true NOT NULL,
	CONSTRAINT "earnings_split_check" CHECK ("earnings"."amount" = "earnings"."held_back" + "earnings"."payable")
);
--> statement-breakpoint
CREATE TABLE "payment_allocations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_allocations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"payment_id" integer NOT NULL,
	"statement_id" integer NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	CONSTRAINT "payment_allocations_amount_check" CHECK ("payment_allocations"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"project_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"received_date" date NOT NULL,
	"currency" varchar(3) NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"reference" varchar(100),
	CONSTRAINT "payments_amount_check" CHECK ("payments"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "statement_lines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "statement_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"statement_id" integer NOT NULL,
	"earning_id" integer,
	"description" varchar(200) NOT NULL,
	"service_date" date,
	"amount" numeric(14, 2) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "statements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" varchar(80) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"project_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"period_to" date NOT NULL,
	"statement_date" date NOT NULL,
	"due_date" date NOT NULL,
	"currency" varchar(3) NOT NULL,
	"vat_percent" integer NOT NULL,
	"payment_days" integer NOT NULL,
	"paid_percentage" integer NOT NULL,
	"net" numeric(14, 2) NOT NULL,
	"vat" numeric(14, 2) NOT NULL,
	"gross" numeric(14, 2) NOT NULL,
	"paid" numeric(14, 2) DEFAULT '0' NOT NULL,
	"status" varchar(10) DEFAULT 'DRAFT' NOT NULL,
	"external_invoice_number" varchar(50),
	CONSTRAINT "statements_status_check" CHECK ("statements"."status" in ('DRAFT', 'SENT', 'VOID'))
);
--> statement-breakpoint
ALTER TABLE "earnings" ADD CONSTRAINT "earnings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "earnings" ADD CONSTRAINT "earnings_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "earnings" ADD CONSTRAINT "earnings_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "earnings" ADD CONSTRAINT "earnings_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "earnings" ADD CONSTRAINT "earnings_visit_id_visits_id_fk" FOREIGN KEY ("visit_id") REFERENCES "public"."visits"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "earnings" ADD CONSTRAINT "earnings_patient_visit_id_patient_visits_id_fk" FOREIGN KEY ("patient_visit_id") REFERENCES "public"."patient_visits"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "earnings" ADD CONSTRAINT "earnings_reverses_id_earnings_id_fk" FOREIGN KEY ("reverses_id") REFERENCES "public"."earnings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "earnings" ADD CONSTRAINT "earnings_statement_id_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."statements"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_statement_id_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."statements"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_statement_id_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."statements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_earning_id_earnings_id_fk" FOREIGN KEY ("earning_id") REFERENCES "public"."earnings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statements" ADD CONSTRAINT "statements_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statements" ADD CONSTRAINT "statements_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "earnings_uuid_unique" ON "earnings" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "earnings_live_visit_unique" ON "earnings" USING btree ("patient_id","study_id","visit_id") WHERE "earnings"."live" and "earnings"."reverses_id" is null;--> statement-breakpoint
CREATE INDEX "earnings_project_id_site_id_service_date_idx" ON "earnings" USING btree ("project_id","site_id","service_date","id");--> statement-breakpoint
CREATE INDEX "earnings_site_id_service_date_idx" ON "earnings" USING btree ("site_id","service_date","id");--> statement-breakpoint
CREATE INDEX "earnings_study_id_idx" ON "earnings" USING btree ("study_id");--> statement-breakpoint
CREATE INDEX "earnings_visit_id_idx" ON "earnings" USING btree ("visit_id");--> statement-breakpoint
CREATE INDEX "earnings_patient_visit_id_idx" ON "earnings" USING btree ("patient_visit_id") WHERE "earnings"."patient_visit_id" is not null;--> statement-breakpoint
CREATE INDEX "earnings_reverses_id_idx" ON "earnings" USING btree ("reverses_id") WHERE "earnings"."reverses_id" is not null;--> statement-breakpoint
CREATE INDEX "earnings_statement_id_idx" ON "earnings" USING btree ("statement_id") WHERE "earnings"."statement_id" is not null;--> statement-breakpoint
CREATE INDEX "payment_allocations_payment_id_idx" ON "payment_allocations" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payment_allocations_statement_id_idx" ON "payment_allocations" USING btree ("statement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_uuid_unique" ON "payments" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "payments_project_id_site_id_idx" ON "payments" USING btree ("project_id","site_id","received_date");--> statement-breakpoint
CREATE INDEX "payments_site_id_idx" ON "payments" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "statement_lines_statement_id_idx" ON "statement_lines" USING btree ("statement_id","id");--> statement-breakpoint
CREATE INDEX "statement_lines_earning_id_idx" ON "statement_lines" USING btree ("earning_id") WHERE "statement_lines"."earning_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "statements_uuid_unique" ON "statements" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "statements_project_id_site_id_idx" ON "statements" USING btree ("project_id","site_id","statement_date");--> statement-breakpoint
CREATE INDEX "statements_site_id_idx" ON "statements" USING btree ("site_id");