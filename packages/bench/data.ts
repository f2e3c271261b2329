/** Runs one SQL statement on the bench's database (no statement timeout: some take seconds). */
export type Exec = (statement: string) => Promise<unknown>;

/** The size of one bench run; the 100,000-patient run is the issue's, the 10,000 one shows growth. */
export type BenchSize = { patients: number; patientVisits: number };

export const summaryPatients = 2_000;
export const studyCount = 25;
export const visitsPerStudy = 40;

const lastNames = [
  "Kovacs", "Nagy", "Toth", "Szabo", "Horvath", "Varga", "Kiss", "Molnar", "Nemeth", "Farkas",
  "Balogh", "Balázs", "Papp", "Takacs", "Juhasz", "Lakatos", "Meszaros", "Olah", "Simon", "Racz",
  "Fekete", "Szilagyi", "Torok", "Feher", "Ábrahám", "Gal", "Kis", "Szucs", "Kocsis", "Orsos",
  "Pinter", "Fodor", "Szalai", "Sipos", "Magyar", "Lukacs", "Gulyas", "Biro", "Kiraly", "Ördög",
]; // biome-ignore format: a list of names
const firstNames = [
  "Anna", "Laszlo", "Maria", "Istvan", "Erzsebet", "Jozsef", "Katalin", "Janos", "Eva", "Zoltan",
  "Ilona", "Sandor", "Noemi", "Ferenc", "Agnes", "Gabor", "Judit", "Attila", "Zsuzsanna", "Peter",
  "Ildiko", "Tamas", "Margit", "Zsolt", "Julianna", "Tibor", "Andrea", "Ádám", "Krisztina", "Csaba",
  "Erika", "Balázs", "Monika", "Gyorgy", "Timea", "Mihaly", "Edit",
]; // biome-ignore format: a list of names

const textArray = (values: string[]) => `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(",")}]`;

/**
 * Fills a migrated, seeded database with the bench's data in SQL (generate_series, one statement per
 * table, so 1,000,000 visits take seconds, not an hour of API calls): 25 studies × 40 visits with a
 * plan each; the patients, half at the first site (BUD), each with an address and a phone; one
 * assignment per patient, 2,000 of them in the first bench study (the visit summary's); the visits,
 * all 40 for that study's patients and the rest spread over the other assignments. The plans place
 * visit k on day 14 × (k − 1) ± 3, and the visits keep to them but for one in twenty after the first,
 * done 5 days late: out of its window, each with its automatic protocol deviation (issue 43).
 */
export async function buildBenchData(exec: Exec, size: BenchSize, log: (line: string) => void) {
  const run = async (label: string, statement: string) => {
    const started = performance.now();
    // One statement at a time: PGlite's driver sends each as a prepared statement.
    for (const part of statement.split(/;\s*(?:\n|$)/).filter((s) => s.trim() !== "")) await exec(part);
    log(`  ${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  };
  const n = size.patients;
  await run(
    "5 projects, 25 studies",
    `insert into projects (uuid, working_name, protocol_nr, internal_code, project_status_id, phase,
       therapy_area_id, cro_id, sponsor_id)
     select 'prj-' || gen_random_uuid(), 'Bench project ' || g, 'BENCH-' || g, 'BENCH-' || g,
       p.project_status_id, p.phase, p.therapy_area_id, p.cro_id, p.sponsor_id
     from generate_series(1, 5) g, (select * from projects order by id limit 1) p;
     insert into studies (uuid, project_id, variant, working_name, fpfv, lpfv, lplv, project_status_id)
     select 'std-' || gen_random_uuid(), p.id, v.variant, p.working_name || ' ' || v.variant,
       '2024-01-01', '2025-06-30', '2027-12-31', p.project_status_id
     from projects p cross join (values (1, 'NORMAL'), (2, 'SECONDARY'), (3, 'SUB-STUDY'),
       (4, 'VARIANT-1'), (5, 'VARIANT-2')) v(k, variant)
     where p.protocol_nr like 'BENCH-%' order by p.id, v.k;
     create table bench_studies as
       select row_number() over (order by s.id)::int as n, s.id from studies s
       join projects p on p.id = s.project_id where p.protocol_nr like 'BENCH-%';`,
  );
  await run(
    "1,000 visits and 25 plans",
    `insert into visits (uuid, study_id, name, visit_type_id, mandatory)
     select 'visit-' || gen_random_uuid(), s.id, 'Visit ' || k,
       case when k = 1 then 20 when k = 2 then 50 when k = ${visitsPerStudy} then 90 else 60 end, k <= 30
     from bench_studies s, generate_series(1, ${visitsPerStudy}) k order by s.id, k;
     create table bench_visits as
       select v.id, v.study_id, row_number() over (partition by v.study_id order by v.id)::int as k
       from visits v where v.study_id in (select id from bench_studies);
     insert into studyplans (uuid, study_id) select 'stp-' || gen_random_uuid(), id from bench_studies;
     insert into studyplan_schedule_entries (studyplan_id, from_visit_id, to_visit_id, days_from_start,
       allowed_days_before, allowed_days_after, sequence)
     select p.id, v.id, nxt.id, case when nxt.id is null then 0 else 14 * v.k end,
       case when nxt.id is null then 0 else 3 end, case when nxt.id is null then 0 else 3 end, v.k
     from bench_visits v join studyplans p on p.study_id = v.study_id
     left join bench_visits nxt on nxt.study_id = v.study_id and nxt.k = v.k + 1;`,
  );
  await run(
    `${n.toLocaleString("en-US")} patients with addresses and phones`,
    `create table bench_patients as
       select g, case when g % 2 = 0 then 0 else 1 + (g / 2) % (select count(*) - 1 from sites) end as site_rank
       from generate_series(1, ${n}) g;
     create table bench_address_base as select coalesce(max(id), 0) as base from addresses;
     insert into addresses (country_code, city, street_address, postal_code)
     select 'HU', 'Budapest', 'Bench utca ' || g, lpad((1000 + g % 9000)::text, 4, '0')
     from generate_series(1, ${n}) g order by g;
     with site as (select row_number() over (order by id)::int - 1 as site_rank, id, barcode_prefix,
         last_barcode_number from sites),
       numbered as (select b.g, s.id as site_id, s.barcode_prefix, s.last_barcode_number
           + row_number() over (partition by s.id order by b.g) as nr
         from bench_patients b join site s on s.site_rank = b.site_rank)
     insert into patients (uuid, barcode, recorder_site_id, address_id, first_name, last_name, ssn,
       birth_date, sex)
     select 'pt-' || gen_random_uuid(), barcode_prefix || lpad(nr::text, 6, '0'), site_id,
       (select base from bench_address_base) + g,
       (${textArray(firstNames)})[1 + (g / ${lastNames.length}) % ${firstNames.length}],
       (${textArray(lastNames)})[1 + g % ${lastNames.length}],
       lpad((100000000 + g)::text, 9, '0'), date '1940-01-01' + (g * 7919 % 25000),
       (array['MALE', 'FEMALE', 'UNK'])[1 + g % 3]
     from numbered order by g;
     update sites s set last_barcode_number = coalesce((select max(substring(p.barcode from '[0-9]+$')::int)
       from patients p where p.recorder_site_id = s.id), s.last_barcode_number);
     create table bench_patient_ids as
       select row_number() over (order by id)::int as r, id, recorder_site_id from patients
       where address_id > (select base from bench_address_base);
     insert into patient_contacts (patient_id, position, contact_type, value)
     select id, 0, 'PHONE', '+36 30 ' || lpad(r::text, 7, '0') from bench_patient_ids order by r;`,
  );
  // The first 2,000 patients of the first site go to the summary study; the others spread over the rest.
  const others = n - summaryPatients;
  const otherVisits = Math.max(0, size.patientVisits - summaryPatients * visitsPerStudy);
  const base = Math.min(visitsPerStudy, Math.floor(otherVisits / others));
  const extra = otherVisits - base * others;
  await run(
    `${n.toLocaleString("en-US")} study assignments`,
    `create table bench_assignments as
       select p.id as patient_id, case when b.r <= ${summaryPatients} then 1 else 2 + b.r % ${studyCount - 1} end as n,
         case when b.r <= ${summaryPatients} then ${visitsPerStudy}
           when b.r - ${summaryPatients} <= ${extra} then ${base + 1} else ${base} end as visit_count,
         date '2024-01-01' + (p.id % 700) as start_date, p.r
       from bench_patient_ids p
       join (select row_number() over (order by (recorder_site_id <> (select min(id) from sites)), id)::int as r, id
             from bench_patient_ids) b on b.id = p.id;
     insert into study_patients (uuid, study_id, patient_id, screen_nr, random_nr, active, start_date)
     select 'sp-' || gen_random_uuid(), s.id, a.patient_id, 'S' || lpad(a.r::text, 6, '0'),
       'R' || lpad(a.r::text, 6, '0'), true, a.start_date
     from bench_assignments a join bench_studies s on s.n = a.n order by a.r;`,
  );
  await run(
    `${size.patientVisits.toLocaleString("en-US")} patient visits`,
    `insert into patient_visits (uuid, patient_id, study_id, visit_id, visit_date, visit_time, visit_status,
       visit_result)
     select 'pv-' || gen_random_uuid(), a.patient_id, s.id, v.id,
       a.start_date + 14 * (v.k - 1) + case when v.k > 1 and (a.patient_id + v.k) % 20 = 0
         and a.start_date + 14 * (v.k - 1) + 5 <= current_date then 5 else 0 end,
       time '08:00' + (v.k * 17 % 600) * interval '1 minute',
       case when a.start_date + 14 * (v.k - 1) <= current_date then 'COMPLETED' else 'BOOKED' end,
       case when a.start_date + 14 * (v.k - 1) <= current_date then 'OK' end
     from bench_assignments a join bench_studies s on s.n = a.n
     join bench_visits v on v.study_id = s.id and v.k <= a.visit_count;`,
  );
  // What each completed mandatory visit earned (issue 45), as its save would have written it: the
  // project's 1,850.00 EUR over its 30 mandatory visits (61.66, the last 61.86), 80 % payable. What
  // was earned before March 2025 is billed and paid, one statement per project and site, as a site
  // that has billed its past has it.
  await run(
    "finance terms and the earnings of the completed visits",
    `update projects set settlement_days = 30, payment_days = 45, patient_fee = 1850, currency = 'EUR', vat = 27,
       paid_percentage = 80, monitored_percentage = 0
     where protocol_nr like 'BENCH-%';
     insert into project_sites (project_id, site_id) select p.id, s.id from projects p, sites s
     where p.protocol_nr like 'BENCH-%' on conflict do nothing;
     insert into earnings (uuid, project_id, site_id, study_id, patient_id, visit_id, patient_visit_id,
       service_date, currency, amount, held_back, payable)
     select 'ern-' || gen_random_uuid(), s.project_id, p.recorder_site_id, pv.study_id, pv.patient_id,
       pv.visit_id, pv.id, pv.visit_date, 'EUR', f.amount, f.amount - round(f.amount * 0.8, 2),
       round(f.amount * 0.8, 2)
     from patient_visits pv join bench_visits v on v.id = pv.visit_id and v.k <= 30
     join studies s on s.id = pv.study_id join patients p on p.id = pv.patient_id
     cross join lateral (select case when v.k = 30 then 61.86 else 61.66 end as amount) f
     where pv.visit_status = 'COMPLETED' order by pv.id;
     create table bench_billed as
       select project_id, site_id, nextval(pg_get_serial_sequence('statements', 'id')) as id
       from earnings where service_date < date '2025-03-01' group by project_id, site_id;
     insert into statements (id, uuid, project_id, site_id, period_to, statement_date, due_date, currency,
       vat_percent, payment_days, paid_percentage, net, vat, gross, paid, status)
     overriding system value
     select b.id, 'stm-' || gen_random_uuid(), b.project_id, b.site_id, '2025-02-28', '2025-03-01', '2025-04-15',
       'EUR', 27, 45, 80, 0, 0, 0, 0, 'SENT'
     from bench_billed b;
     update earnings e set statement_id = b.id from bench_billed b
     where b.project_id = e.project_id and b.site_id = e.site_id and e.service_date < date '2025-03-01';
     insert into statement_lines (statement_id, earning_id, description, service_date, amount)
     select e.statement_id, e.id, 'Bench visit', e.service_date, e.payable from earnings e
     where e.statement_id is not null order by e.id;
     update statements s set net = t.net, vat = round(t.net * 0.27, 2), gross = t.net + round(t.net * 0.27, 2),
       paid = t.net + round(t.net * 0.27, 2)
     from (select statement_id, sum(amount) as net from statement_lines group by 1) t where t.statement_id = s.id;
     drop table bench_billed;`,
  );
  await run(
    "drop the helper tables",
    `drop table bench_patients, bench_address_base, bench_patient_ids, bench_assignments, bench_visits;`,
  );
}

/** Statistics and the visibility map (index-only scans), as a database that has run a while has them. */
export async function analyze(exec: Exec) {
  await exec("vacuum analyze");
}
