import { verify } from "@node-rs/argon2";
import { countBound, newUuid, visitSummaryDayZero } from "@trialdesk/domain";
import { patientInput, patientVisitInput } from "@trialdesk/server/src/seed/factories";
import type { HttpCall } from "./measure";

type Rows = Record<string, unknown>[];
/** A plain database connection for the hand-written SQL: a pg pool, or the PGlite instance itself. */
export type Raw = {
  query: (text: string, params?: unknown[]) => Promise<Rows>;
  transaction: (work: (query: Raw["query"]) => Promise<void>) => Promise<void>;
};

export const pageSize = 50;

/** The sign-in case's accounts, one per client (the rate limit counts an attempt until it succeeds). */
export const signInEmails = Array.from({ length: 32 }, (_, i) => `bench-signin-${i}@example.com`);
/**
 * Each account signs in from a desk of its own, as 32 people at 32 desks do: the server believes the
 * address a proxy at this machine names (TRUST_PROXY). From one address, 32 sign-ins at every moment
 * are a flood, which the limit per address makes take turns (decision 167).
 */
export const signInProxy = "127.0.0.1";
const deskOf = (email: string) => `10.0.0.${signInEmails.indexOf(email) + 1}`;
export const signInPassword = "bench-signin-password";

/** What the cases need from the bench data, read once per run. */
export type Fixtures = {
  siteId: number;
  siteCode: string;
  sitePatients: number;
  patientUuid: string;
  barcode: string;
  phoneDigits: string;
  summaryStudyId: number;
  summaryStudyUuid: string;
  /** Where the patients the bench creates go: another site, so that the site's lists stay as measured. */
  createSiteId: number;
  /**
   * Each assignment's next visit, dated in its window: one per created visit, in turn over 2,500
   * patients, so that simultaneous saves are for different patients as at a site's desks (saves for one
   * patient's study wait for each other: the server locks the assignment to keep its windows). A later
   * turn records the visit again (a visit may have several records).
   */
  freeVisits: { patientId: number; studyId: number; visitId: number; visitDate: string }[];
  /** The next unused one, shared by the SQL and the HTTP runs. */
  nextFreeVisit: number;
  /** Others, dated 5 days after their window's end: each save writes a protocol deviation (issue 43). */
  lateVisits: Fixtures["freeVisits"];
  nextLateVisit: number;
  /**
   * The bench's projects, whose earnings at the site the statement case bills a day at a time, each
   * with the days it has unbilled earnings on, in order.
   */
  statementDays: { projectId: number; days: string[] }[];
};

export async function readFixtures(raw: Raw): Promise<Fixtures> {
  const [site] = await raw.query(
    `select p.recorder_site_id as id, s.code, count(*)::int as n from patients p join sites s on s.id = p.recorder_site_id
     group by 1, 2 order by 3 desc limit 1`,
  );
  const [patient] = await raw.query(
    `select p.uuid, p.barcode, c.value as phone from patients p join patient_contacts c on c.patient_id = p.id
     where p.recorder_site_id = $1 order by p.id offset 1000 limit 1`,
    [site.id],
  );
  const [study] = await raw.query(
    "select s.id, s.uuid from bench_studies b join studies s on s.id = b.id where b.n = 1",
  );
  const [createSite] = await raw.query("select id from sites where id <> $1 order by id limit 1", [site.id]);
  // Each assignment's next visit, not recorded yet (recorded visits are each assignment's first ones),
  // with its expected day: saved on it, a visit is in its window; 5 days after it, out of it.
  const nextVisits = (late: boolean) =>
    raw.query(
      `select sp.patient_id as "patientId", sp.study_id as "studyId", v.id as "visitId",
         (sp.start_date + 14 * (v.k - 1) + ${late ? 5 : 0})::text as "visitDate"
       from study_patients sp
       join lateral (select v.id, row_number() over (order by v.id)::int as k from visits v
         where v.study_id = sp.study_id) v on true
       where sp.patient_id in (select id from patients where recorder_site_id = $1 order by id limit 5000)
         and sp.study_id <> $2 and sp.start_date + 14 * (v.k - 1) + 5 <= current_date
         and v.k = 1 + (select count(*) from patient_visits pv
           where pv.patient_id = sp.patient_id and pv.study_id = sp.study_id)
         and sp.patient_id % 2 = ${late ? 1 : 0}
       order by sp.patient_id`,
      [site.id, study.id],
    ) as Promise<Fixtures["freeVisits"]>;
  const [freeVisits, lateVisits] = await Promise.all([nextVisits(false), nextVisits(true)]);
  const days = await raw.query(
    `select project_id as "projectId", array_agg(distinct service_date::text order by service_date::text) as days
     from earnings where site_id = $1 and statement_id is null
       and project_id in (select id from projects where protocol_nr like 'BENCH-%')
     group by 1 order by 1`,
    [site.id],
  );
  return {
    siteId: site.id as number,
    siteCode: site.code as string,
    sitePatients: site.n as number,
    patientUuid: patient.uuid as string,
    barcode: patient.barcode as string,
    phoneDigits: String(patient.phone).split(" ").at(-1) as string,
    summaryStudyId: study.id as number,
    summaryStudyUuid: study.uuid as string,
    createSiteId: createSite.id as number,
    freeVisits,
    nextFreeVisit: 0,
    lateVisits,
    nextLateVisit: 0,
    statementDays: days as Fixtures["statementDays"],
  };
}

export type Case = {
  name: string;
  http: HttpCall;
  /** Measured with one client only: a call a site makes now and then (a statement), never 32 at once. */
  oneClient?: boolean;
  /** Run before each measured span of the server's call (its warm-up too). */
  before?: (base: string) => Promise<void>;
  /** Run before each measured span of the hand-written floor (its warm-up too). */
  rawBefore?: (raw: Raw) => Promise<void>;
  /** The same answer by hand: the floor. */
  raw: (raw: Raw) => Promise<unknown>;
};

/**
 * Both sides are warmed up with as many clients as the loaded figure has, so that it is taken in a
 * steady state: every pooled connection open and its statements planned, the server's code compiled.
 * With 4, the first call measured at 32 clients paid for opening and warming six connections on each
 * side (the patients list's first page, 0.45–0.48 of its floor, against 0.75 for the next call).
 */
export const warmClients = 32;
/**
 * Seconds of that warm-up (BENCH_WARM_SECONDS to try another). A server runs for days, and V8 compiles
 * its code as it runs: saving patient visits from a fresh start took 5.4 ms of the process per save over
 * the first 5 s at 32 clients, and 2.9–3.3 ms from the 10th second on. One second left each save case's
 * figures in that first phase.
 */
export const warmSeconds = Number(process.env.BENCH_WARM_SECONDS ?? 3);

// The list rows of the patients list (spec §2.5 with design §4's derived phone and project code, and
// the Study column of issue 15), as the server answers them.
const patientRow = `p.id, p.uuid, p.barcode, p.last_name || ' ' || p.first_name as name, p.first_name,
  p.last_name, p.birth_date, p.ssn,
  (select c.value from patient_contacts c where c.patient_id = p.id and c.contact_type = 'PHONE'
    order by c.position, c.id limit 1) as phone,
  (select pr.internal_code from study_patients sp join studies s on s.id = sp.study_id
    join projects pr on pr.id = s.project_id where sp.patient_id = p.id and sp.active
    order by sp.start_date desc nulls last, sp.id desc limit 1) as project_internal_code,
  (select s.working_name from study_patients sp join studies s on s.id = sp.study_id
    where sp.patient_id = p.id and sp.active
    order by sp.start_date desc nulls last, sp.id desc limit 1) as study_working_name,
  p.status, p.status_details, p.address_id, p.recorder_site_id`;
const byName = `last_name collate "und-x-icu", first_name collate "und-x-icu", id`;
const boundedCount = (from: string) =>
  `select count(*)::int as total from (select 1 ${from} limit ${countBound + 1}) t`;

/** A page of patients: the page's ids from the index, then their rows; the count beside it. */
function patientPage(raw: Raw, where: string, params: unknown[], order: string, page: number) {
  return Promise.all([
    raw.query(
      `select ${patientRow} from (select id from patients where ${where} order by ${order}
         limit ${pageSize} offset ${(page - 1) * pageSize}) page join patients p on p.id = page.id
       order by ${order.replace(/(^|, )/g, "$1p.")}`,
      params,
    ),
    raw.query(boundedCount(`from patients where ${where}`), params),
  ]);
}

/**
 * A patient the bench creates: at another site and by a name no search case looks for. The floor's
 * creates run before the server's reads; as Kovács Anna at the site they had the server's search find
 * 2,700 patients where the floor's found 21, and its lists count 7,700 where the floor's counted 5,000.
 */
let created = 0;
function createdPatient(f: Fixtures) {
  const input = patientInput(f.createSiteId);
  // Each its own person: a second patient of one SSN, or of one name and birth date at a site, is
  // refused or asked about (issue 46).
  const n = created++;
  return {
    ...input,
    patientDetail: {
      ...input.patientDetail,
      firstName: "Bench",
      lastName: `Created ${n}`,
      ssn: `B${process.pid}-${n}`,
    },
  };
}

/** A page of patient visits, newest first, with the list's columns; the count beside it. */
function visitPage(raw: Raw, where: string, params: unknown[]) {
  return Promise.all([
    raw.query(
      `select pv.id, pv.uuid, (select sp.screen_nr from study_patients sp where sp.patient_id = pv.patient_id
           and sp.study_id = pv.study_id order by sp.active desc, sp.start_date desc nulls last, sp.id desc limit 1)
           as screen_number,
         p.last_name || ' ' || p.first_name as patient_name, s.working_name, v.name, pv.visit_date, pv.visit_status
       from (select id from patient_visits where ${where}
         order by visit_date desc, visit_time desc, id desc limit ${pageSize}) page
       join patient_visits pv on pv.id = page.id join patients p on p.id = pv.patient_id
       join studies s on s.id = pv.study_id join visits v on v.id = pv.visit_id
       order by pv.visit_date desc, pv.visit_time desc, pv.id desc`,
      params,
    ),
    raw.query(boundedCount(`from patient_visits where ${where}`), params),
  ]);
}

/** An earning's state as the server reads it (finance-sql.ts), over rows named "earnings". */
const earningState = `case
  when "earnings".statement_id is not null then
    (select case when s.status = 'SENT' and s.paid + s.written_off >= s.gross then 'PAID' else 'ON_STATEMENT' end
      from statements s where s.id = "earnings".statement_id)
  when "earnings".reverses_id is null
    and exists(select 1 from study_patients sp where sp.patient_id = "earnings".patient_id
      and sp.study_id = "earnings".study_id and sp.sdv_selected)
    and not exists(select 1 from patient_visits pv where pv.id = "earnings".patient_visit_id
      and pv.sdv_verified_at is not null and not pv.sdv_reopened
      and not exists(select 1 from queries q where q.patient_visit_id = pv.id and q.status <> 'CLOSED'))
    then 'AWAITING_VERIFICATION'
  else 'BILLABLE' end`;

/** Voids the site's draft statements (the bench's own), so their earnings are billable again. */
async function voidDrafts(base: string, siteId: number, headers: Record<string, string>) {
  for (;;) {
    const res = await fetch(`${base}/api/statements?siteId=${siteId}&status=DRAFT&pagesize=500`, { headers });
    const drafts = ((await res.json()) as { data: { items: Record<string, unknown>[] } }).data.items;
    if (drafts.length === 0) return;
    for (const draft of drafts) {
      const put = await fetch(`${base}/api/statements/${draft.uuid}`, {
        method: "PUT",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ ...draft, status: "VOID" }),
      });
      if (!put.ok) throw new Error(`voiding a bench statement: HTTP ${put.status}`);
    }
  }
}

const likeWord = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** Every word in the name, barcode, SSN or a phone (the patient search of decision 67), by trigrams
 * (the search text is kept folded, so LIKE on the folded word). */
function searchWhere(words: string[], first: number) {
  return words.map((_, i) => `search_text like search_fold($${first + i})`).join(" and ");
}

/** The cases of the issue; `auth` signs a read in, `write` a save (with the CSRF token). */
export function cases(f: Fixtures, auth: Record<string, string>, write: Record<string, string>): Case[] {
  const site = `siteId=${f.siteId}`;
  const deepPage = Math.max(1, Math.floor(f.sitePatients / pageSize));
  const search = (name: string, term: string): Case => ({
    name,
    http: {
      method: "GET",
      path: `/api/patients?format=list&${site}&pagesize=${pageSize}&searchTerm=${encodeURIComponent(term)}`,
      headers: auth,
    },
    raw: (raw) => {
      const words = term.split(/\s+/);
      return patientPage(
        raw,
        `recorder_site_id = $1 and ${searchWhere(words, 2)}`,
        [f.siteId, ...words.map(likeWord)],
        "id",
        1,
      );
    },
  });
  let signIns = 0;
  /**
   * The statements the bench prepares: in turn for each bench project, each of its next day of unbilled
   * earnings at the site (about 80 lines at 100,000 patients). The hand-written floor counts on its
   * own; `before` and `rawBefore` void the drafts, so each measured span starts from the same ledger.
   */
  let statements = 0;
  let floorStatements = 0;
  const statementOf = (n: number) => {
    const { projectId, days } = f.statementDays[
      n % f.statementDays.length
    ] as Fixtures["statementDays"][number];
    const periodTo = days[Math.floor(n / f.statementDays.length) % days.length] as string;
    return { projectId, siteId: f.siteId, periodTo, statementDate: periodTo };
  };
  const nextVisit = () => f.freeVisits[f.nextFreeVisit++ % f.freeVisits.length];
  const nextLateVisit = () => f.lateVisits[f.nextLateVisit++ % f.lateVisits.length];
  /**
   * A visit saved through the form, and by hand: the record, its audit row, the assignment's stored
   * window of that visit (the server rebuilds the assignment's windows and writes the rows that
   * changed: here one) and, for a late visit, its protocol deviation with its audit row.
   */
  const visitSave = (name: string, next: () => Fixtures["freeVisits"][number], late: boolean): Case => ({
    name,
    http: {
      method: "POST",
      path: "/api/patient-visits",
      headers: write,
      body: () => {
        const { visitDate, ...refs } = next();
        return patientVisitInput(refs, { visitDate });
      },
    },
    raw: (raw) =>
      raw.transaction(async (query) => {
        const { visitDate, ...refs } = next();
        const input = patientVisitInput(refs, { visitDate });
        const [visit] = await query(
          `insert into patient_visits (uuid, patient_id, study_id, visit_id, visit_date, visit_time, visit_status,
             visit_result) values ($1, $2, $3, $4, $5, $6, $7, $8) returning *`,
          [
            input.uuid,
            input.patientId,
            input.studyId,
            input.visitId,
            input.visitDate,
            input.visitTime,
            input.visitStatus,
            input.visitResult,
          ],
        );
        await query(
          `insert into audit_events (request_id, resource, uuid, action, changes, site_id)
           values ($1, 'patient-visits', $2, 'create', $3, $4)`,
          [newUuid(), input.uuid, JSON.stringify(visit), f.siteId],
        );
        const [stored] = await query(
          `update visit_schedule set patient_visit_id = $1, visit_date = $2, visit_status = $3::varchar,
             kind = case when $3::varchar in ('COMPLETED', 'ARRIVED') then $7 else 'booked' end,
             deviation_open = $7 = 'out-of-window'
           where study_patient_id = (select id from study_patients where patient_id = $4 and study_id = $5
             order by active desc, id desc limit 1) and visit_id = $6
           returning study_patient_id, window_end`,
          [
            visit.id,
            input.visitDate,
            input.visitStatus,
            input.patientId,
            input.studyId,
            input.visitId,
            late ? "out-of-window" : "done",
          ],
        );
        if (!late) return;
        const uuid = newUuid("protocol-deviations");
        const [deviation] = await query(
          `insert into protocol_deviations (uuid, site_id, patient_id, study_id, study_patient_id, visit_id,
             patient_visit_id, kind, source, detected_on, days_outside, description)
           values ($1, $2, $3, $4, $5, $6, $7, 'OUT_OF_WINDOW', 'AUTOMATIC', current_date, $8::date - $9::date, $10)
           on conflict (study_patient_id, visit_id, kind) where source = 'AUTOMATIC'
             do update set patient_visit_id = excluded.patient_visit_id,
               version = protocol_deviations.version + 1, updated_at = now()
           returning *`,
          [
            uuid,
            f.siteId,
            input.patientId,
            input.studyId,
            stored?.study_patient_id,
            input.visitId,
            visit.id,
            input.visitDate,
            stored?.window_end,
            "Visit completed 2 days after its window closed.",
          ],
        );
        // A visit saved again (the bench's turns come round) keeps its one deviation, which now names the
        // new record (the one that counts), as the server's does: an update, audited like a create.
        await query(
          `insert into audit_events (request_id, resource, uuid, action, changes, site_id)
           values ($1, 'protocol-deviations', $2, $3, $4, $5)`,
          [
            newUuid(),
            deviation.uuid,
            deviation.version === 1 ? "create" : "update",
            JSON.stringify(deviation),
            f.siteId,
          ],
        );
      }),
  });
  return [
    {
      name: "patients list, page 1",
      http: { method: "GET", path: `/api/patients?format=list&${site}&pagesize=${pageSize}`, headers: auth },
      raw: (raw) => patientPage(raw, "recorder_site_id = $1", [f.siteId], "id", 1),
    },
    {
      name: `patients list, page ${deepPage.toLocaleString("en-US")}`,
      http: {
        method: "GET",
        path: `/api/patients?format=list&${site}&pagesize=${pageSize}&page=${deepPage}`,
        headers: auth,
      },
      raw: (raw) => patientPage(raw, "recorder_site_id = $1", [f.siteId], "id", deepPage),
    },
    {
      name: "patients by name, page 1",
      http: {
        method: "GET",
        path: `/api/patients?format=list&${site}&pagesize=${pageSize}&order=name`,
        headers: auth,
      },
      raw: (raw) => patientPage(raw, "recorder_site_id = $1", [f.siteId], byName, 1),
    },
    {
      name: `patients by name, page ${deepPage.toLocaleString("en-US")}`,
      http: {
        method: "GET",
        path: `/api/patients?format=list&${site}&pagesize=${pageSize}&order=name&page=${deepPage}`,
        headers: auth,
      },
      raw: (raw) => patientPage(raw, "recorder_site_id = $1", [f.siteId], byName, deepPage),
    },
    search('patient search "kovacs anna"', "kovacs anna"),
    search("patient search by barcode", f.barcode),
    search("patient search by phone", f.phoneDigits),
    {
      name: "patient view",
      http: { method: "GET", path: `/api/patients/${f.patientUuid}`, headers: auth },
      raw: (raw) =>
        raw.query(
          `select p.*, row_to_json(a) as address, (select coalesce(json_agg(c order by c.position, c.id), '[]')
             from patient_contacts c where c.patient_id = p.id) as contacts
           from patients p left join addresses a on a.id = p.address_id where p.uuid = $1`,
          [f.patientUuid],
        ),
    },
    {
      name: "study patients of the site",
      http: { method: "GET", path: `/api/study-patients?${site}&pagesize=${pageSize}`, headers: auth },
      raw: (raw) => {
        const where = "site_id = $1";
        return Promise.all([
          raw.query(
            `select sp.*, p.barcode, p.first_name, p.last_name, pr.internal_code, s.working_name, s.uuid as study_uuid,
               nullif(trim(concat_ws(' ', su.first_name, su.last_name)), '') as started_by_name,
               nullif(trim(concat_ws(' ', cu.first_name, cu.last_name)), '') as closed_by_name
             from (select id from study_patients where ${where} order by id limit ${pageSize}) page
             join study_patients sp on sp.id = page.id join patients p on p.id = sp.patient_id
             join studies s on s.id = sp.study_id join projects pr on pr.id = s.project_id
             left join users su on su.id = sp.started_by left join users cu on cu.id = sp.closed_by
             order by sp.id`,
            [f.siteId],
          ),
          raw.query(boundedCount(`from study_patients where ${where}`), [f.siteId]),
        ]);
      },
    },
    {
      name: "patient visits of the site, newest first",
      http: { method: "GET", path: `/api/patient-visits?${site}&pagesize=${pageSize}`, headers: auth },
      raw: (raw) =>
        visitPage(raw, "patient_id in (select id from patients where recorder_site_id = $1)", [f.siteId]),
    },
    {
      // Decision 176: the barcode's patient is looked up first, and its visits read by patient.
      name: "patient visits searched by a barcode",
      http: {
        method: "GET",
        path: `/api/patient-visits?${site}&pagesize=${pageSize}&searchTerm=${encodeURIComponent(f.barcode)}`,
        headers: auth,
      },
      raw: (raw) =>
        visitPage(
          raw,
          `patient_id = any(array(select id from patients where ${searchWhere([f.barcode], 2)}))
            and patient_id in (select id from patients where recorder_site_id = $1)`,
          [f.siteId, likeWord(f.barcode)],
        ),
    },
    // The worklist case is added by bench.ts when the server has GET /api/worklist.
    {
      // As the screen asks for it: the active site's rows, compact (CompactVisitSummary).
      name: "visit summary, 2,000 × 40",
      http: {
        method: "GET",
        path: `/api/patient-visit-summary/${f.summaryStudyUuid}?siteId=${f.siteId}&compact=true&dayZero=${visitSummaryDayZero}`,
        headers: auth,
      },
      raw: async (raw) => {
        const asOf = new Date().toISOString().slice(0, 10);
        const [columns, patients] = await Promise.all([
          // The study's visits in plan order, each with the entry that places it.
          raw.query(
            `select v.id, v.name as "visitName", v.visit_type_id as "visitType", e.sequence,
               p.days_from_start as "daysFromStart", p.allowed_days_before as "allowedDaysBefore",
               p.allowed_days_after as "allowedDaysAfter", sp.calculation_mode as "calculationMode"
             from visits v left join studyplans sp on sp.study_id = v.study_id
             left join studyplan_schedule_entries e on e.studyplan_id = sp.id and e.from_visit_id = v.id
             left join studyplan_schedule_entries p on p.studyplan_id = sp.id and p.to_visit_id = v.id
             where v.study_id = $1 order by e.sequence nulls last, v.id`,
            [f.summaryStudyId],
          ),
          // Each shown assignment's patient by id and its stored windows' packed cells (VisitSummaryRow).
          raw.query(
            `select p.uuid, p.barcode, p.first_name, p.last_name, a.screen_nr, a.active,
               (select string_agg(vs.cell, ';') from visit_schedule vs where vs.study_patient_id = a.id) as cells
             from (select distinct on (sp.patient_id) sp.id, sp.patient_id, sp.screen_nr, sp.active
               from study_patients sp where sp.study_id = $1 order by sp.patient_id, sp.active desc, sp.id desc) a
             cross join lateral (select p.uuid, p.barcode, p.first_name, p.last_name from patients p
               where p.id = a.patient_id and p.recorder_site_id = $2 offset 0) p
             order by a.screen_nr nulls last, p.last_name, p.first_name, a.patient_id`,
            [f.summaryStudyId, f.siteId],
          ),
        ]);
        // The answer is JSON, as the server's is: one array per patient.
        const rows = patients.map((p) => [
          p.uuid,
          p.barcode,
          p.first_name,
          p.last_name,
          p.screen_nr,
          p.active,
          p.cells ?? "",
        ]);
        return JSON.stringify({ studyVisits: columns, asOf, dayZero: visitSummaryDayZero, rows }).length;
      },
    },
    {
      name: "create a patient",
      http: {
        method: "POST",
        path: "/api/patients",
        headers: write,
        body: () => ({ ...createdPatient(f), uuid: newUuid("patients") }),
      },
      raw: (raw) =>
        raw.transaction(async (query) => {
          const input = createdPatient(f);
          const d = input.patientDetail;
          const [address] = await query(
            "insert into addresses (country_code, city, street_address, postal_code) values ($1, $2, $3, $4) returning id",
            [
              input.address.countryCode,
              input.address.city,
              input.address.streetAddress,
              input.address.postalCode,
            ],
          );
          // The site's counter row is locked until the commit: taken as late as the server takes it.
          const [site] = await query(
            `update sites set last_barcode_number = last_barcode_number + 1 where id = $1
             returning barcode_prefix || lpad(last_barcode_number::text, 6, '0') as barcode`,
            [f.createSiteId],
          );
          const [patient] = await query(
            `insert into patients (uuid, barcode, recorder_site_id, address_id, first_name, last_name, ssn, birth_date,
               birth_country_code, birth_city, mother_name, sex)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning *`,
            [
              input.uuid,
              site.barcode,
              f.createSiteId,
              address.id,
              d.firstName,
              d.lastName,
              d.ssn,
              d.birthDate,
              d.birthCountryCode,
              d.birthCity,
              d.motherName,
              d.sex,
            ],
          );
          for (const [position, c] of input.contacts.entries())
            await query(
              "insert into patient_contacts (patient_id, position, contact_type, value) values ($1, $2, $3, $4)",
              [patient.id, position, c.contactType, c.value],
            );
          await query(
            `insert into audit_events (request_id, resource, uuid, action, changes, site_id)
             values ($1, 'patients', $2, 'create', $3, $4)`,
            [newUuid(), input.uuid, JSON.stringify(patient), f.createSiteId],
          );
        }),
    },
    visitSave("create a patient visit", nextVisit, false),
    visitSave("create a patient visit out of its window (a deviation)", nextLateVisit, true),
    {
      name: "deviations of the site, newest first",
      http: {
        method: "GET",
        path: `/api/protocol-deviations?${site}&pagesize=${pageSize}`,
        headers: auth,
      },
      raw: (raw) => {
        const where = "site_id = $1";
        return Promise.all([
          raw.query(
            `select d.id, d.uuid, d.patient_id, p.barcode, p.last_name || ' ' || p.first_name as patient_name,
               d.study_id, s.working_name, d.visit_id, v.name, d.patient_visit_id, d.kind, d.source, d.days_outside,
               d.detected_on, d.severity, d.status, d.no_longer_applies
             from (select id from protocol_deviations where ${where}
               order by detected_on desc, id desc limit ${pageSize}) page
             join protocol_deviations d on d.id = page.id join patients p on p.id = d.patient_id
             join studies s on s.id = d.study_id left join visits v on v.id = d.visit_id
             order by d.detected_on desc, d.id desc`,
            [f.siteId],
          ),
          raw.query(boundedCount(`from protocol_deviations where ${where}`), [f.siteId]),
        ]);
      },
    },
    {
      name: "earnings of the site, newest first",
      http: { method: "GET", path: `/api/earnings?${site}&pagesize=${pageSize}`, headers: auth },
      raw: (raw) => {
        const where = "site_id = $1 and voided_at is null";
        return Promise.all([
          raw.query(
            `select e.id, e.uuid, e.project_id, pr.working_name, e.site_id, si.code, e.study_id, e.patient_id,
               p.barcode, e.visit_id, v.name, e.patient_visit_id, pv.uuid, e.service_date, e.currency, e.amount,
               e.held_back, e.payable, ${earningState.replaceAll('"earnings"', "e")}, e.reverses_id is not null,
               e.statement_id, st.uuid
             from (select id from earnings where ${where} order by service_date desc, id desc limit ${pageSize}) page
             join earnings e on e.id = page.id join projects pr on pr.id = e.project_id
             join sites si on si.id = e.site_id join patients p on p.id = e.patient_id
             join visits v on v.id = e.visit_id left join patient_visits pv on pv.id = e.patient_visit_id
             left join statements st on st.id = e.statement_id
             order by e.service_date desc, e.id desc`,
            [f.siteId],
          ),
          raw.query(boundedCount(`from earnings where ${where}`), [f.siteId]),
        ]);
      },
    },
    {
      name: "create a statement of a day's earnings",
      http: {
        method: "POST",
        path: "/api/statements",
        headers: write,
        body: () => ({ uuid: newUuid("statements"), ...statementOf(statements++) }),
      },
      oneClient: true,
      before: async (base) => {
        statements = 0;
        await voidDrafts(base, f.siteId, write);
      },
      // By hand, in one transaction: the same statements in the same turn, each of its day's earnings.
      rawBefore: async (raw) => {
        floorStatements = 0;
        await raw.query(
          `with drafts as (update statements set status = 'VOID' where site_id = $1 and status = 'DRAFT' returning id)
           update earnings set statement_id = null where statement_id in (select id from drafts)`,
          [f.siteId],
        );
      },
      raw: (raw) =>
        raw.transaction(async (query) => {
          const { projectId, periodTo } = statementOf(floorStatements++);
          await query("select pg_advisory_xact_lock(hashtextextended('statements ' || $1 || ' ' || $2, 0))", [
            projectId,
            f.siteId,
          ]);
          const billable = `e.project_id = $1 and e.site_id = $2 and e.voided_at is null and e.statement_id is null
              and e.service_date <= $3 and ${earningState.replaceAll('"earnings"', "e")} = 'BILLABLE'`;
          const [terms] = await query(
            `select currency, vat, payment_days, paid_percentage,
                 exists(select 1 from project_sites where project_id = $1 and site_id = $2) as at_site
               from projects where id = $1`,
            [projectId, f.siteId],
          );
          const [statement] = await query(
            `insert into statements (uuid, project_id, site_id, period_to, statement_date, due_date, currency,
                 vat_percent, payment_days, paid_percentage, net, vat, gross)
               values ($1, $2, $3, $4, $4, $4::date + $5::int, $6, $7, $5, $8, 0, 0, 0) returning id`,
            [
              newUuid("statements"),
              projectId,
              f.siteId,
              periodTo,
              terms.payment_days,
              terms.currency,
              terms.vat,
              terms.paid_percentage,
            ],
          );
          const taken = await query(
            `update earnings set statement_id = $4, updated_at = now()
               where id in (select e.id from earnings e where ${billable} for update)
               returning id, service_date, payable,
                 (select v.name || ' · ' || p.barcode from visits v, patients p
                   where v.id = earnings.visit_id and p.id = earnings.patient_id) as description`,
            [projectId, f.siteId, periodTo, statement.id],
          );
          if (taken.length > 0)
            await query(
              `insert into statement_lines (statement_id, earning_id, description, service_date, amount)
                 select $1, t.id, t.description, t.service_date, t.payable
                 from jsonb_to_recordset($2::jsonb) as t(id int, description text, service_date date, payable numeric)`,
              [statement.id, JSON.stringify(taken)],
            );
          await query(
            `update statements set net = t.net, vat = round(t.net * $2 / 100, 2), gross = t.net + round(t.net * $2 / 100, 2)
               from (select coalesce(sum(amount), 0) as net from statement_lines where statement_id = $1) t
               where id = $1`,
            [statement.id, terms.vat],
          );
          await query(
            `insert into audit_events (request_id, resource, uuid, action, changes, site_id)
               values ($1, 'statements', $2, 'create', '[]', $3)`,
            [newUuid(), newUuid("statements"), f.siteId],
          );
        }),
    },
    {
      name: "sign-in",
      http: {
        method: "POST",
        path: "/api/auth",
        body: () => ({ username: signInEmails[signIns++ % signInEmails.length], password: signInPassword }),
        headersOf: (body) => ({ "x-forwarded-for": deskOf((body as { username: string }).username) }),
      },
      raw: async (raw) => {
        const [user] = await raw.query("select id, password_hash from users where email = $1 and is_active", [
          signInEmails[signIns++ % signInEmails.length],
        ]);
        if (!(await verify(user.password_hash as string, signInPassword))) throw new Error("wrong password");
      },
    },
  ];
}
