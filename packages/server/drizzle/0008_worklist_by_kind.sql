DROP INDEX "visit_schedule_worklist_end_idx";--> statement-breakpoint
DROP INDEX "visit_schedule_worklist_start_idx";--> statement-breakpoint
CREATE INDEX "visit_schedule_worklist_idx" ON "visit_schedule" USING btree ("site_id","kind","window_end","id") WHERE "visit_schedule"."active" and "visit_schedule"."sequence" is not null and "visit_schedule"."kind" not in ('done', 'not-applicable');