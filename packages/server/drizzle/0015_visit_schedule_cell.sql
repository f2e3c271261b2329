ALTER TABLE "visit_schedule" ADD COLUMN "cell" text GENERATED ALWAYS AS (visit_id::text
  || case kind when 'done' then 'a' when 'out-of-window' then 'b' when 'booked' then 'c' when 'open' then 'd' when 'not-applicable' then 'e' when 'unscheduled' then 'f' end
  || coalesce((expected_date - date '2025-01-01')::text, '')
  || case when visit_date is null then '' when visit_date = expected_date then ':'
       else ':' || (visit_date - coalesce(expected_date, date '2025-01-01'))::text end
  || case when booked_outside_window then '!' else '' end) STORED NOT NULL;