-- The patients' name order carries the search text (decision 177). A search listed by name, as the
-- patient lookup of the forms always is, walks the name index and tests each patient's search text;
-- with the text in the index that walk reads no table rows. A common last name late in the alphabet
-- ("kovacs": 2,500 of a 50,000-patient site, found only after 25,000 others) took 50 ms of table
-- reads, 6 ms from the index alone. Drizzle cannot declare INCLUDE, so patients.table.ts names the
-- indexes without it.
DROP INDEX "patients_name_idx";--> statement-breakpoint
DROP INDEX "patients_recorder_site_id_name_idx";--> statement-breakpoint
CREATE INDEX "patients_name_idx" ON "patients" USING btree ("last_name" collate "und-x-icu","first_name" collate "und-x-icu","id") INCLUDE ("search_text");--> statement-breakpoint
CREATE INDEX "patients_recorder_site_id_name_idx" ON "patients" USING btree ("recorder_site_id","last_name" collate "und-x-icu","first_name" collate "und-x-icu","id") INCLUDE ("search_text");
