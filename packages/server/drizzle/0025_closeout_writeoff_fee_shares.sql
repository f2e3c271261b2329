ALTER TABLE "earnings" ADD COLUMN "held_back_statement_id" integer;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD COLUMN "held_back" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "statements" ADD COLUMN "close_out" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "statements" ADD COLUMN "written_off" numeric(14, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "statements" ADD COLUMN "write_off_reason" varchar(500);--> statement-breakpoint
ALTER TABLE "studyplan_schedule_entries" ADD COLUMN "fee_share" numeric(5, 2);--> statement-breakpoint
ALTER TABLE "earnings" ADD CONSTRAINT "earnings_held_back_statement_id_statements_id_fk" FOREIGN KEY ("held_back_statement_id") REFERENCES "public"."statements"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "earnings_held_back_statement_id_idx" ON "earnings" USING btree ("held_back_statement_id") WHERE "earnings"."held_back_statement_id" is not null;--> statement-breakpoint
ALTER TABLE "studyplan_schedule_entries" ADD CONSTRAINT "studyplan_schedule_entries_fee_share_check" CHECK ("studyplan_schedule_entries"."fee_share" > 0 and "studyplan_schedule_entries"."fee_share" <= 100);