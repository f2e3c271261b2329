import {
  activePatientStatus,
  birthDateRule,
  blankToNull,
  inactivePatientStatus,
  isActiveStatus,
  isValidIsoDate,
  lookupPageSizes,
  optionLabel,
  type PatientInput,
  patientStatuses,
  sameNamePatientMessage,
  ssnExistsElsewhereMessage,
  ssnExistsMessage,
  toIsoDate,
  validatePatient,
} from "@trialdesk/domain";
import { eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { z } from "zod";
import type { SessionUser } from "../../auth/guards";
import { loadConfig } from "../../config";
import { builtOnce, type Db, namedByText, queryRows, type Tx } from "../../db/client";
import { AppError, validationError } from "../../http/errors";
import { booleanParam, idParam } from "../params";
import { projects } from "../projects/projects.table";
import { byName, defineResource, foldedText, type Row } from "../resource";
import { inSites } from "../site-scope";
import { sites } from "../sites/sites.table";
import { studies } from "../studies/studies.table";
import { studyPatients } from "../study-patients/study-patients.table";
import { addresses, patientContacts, patients } from "./patients.table";

/** The same answer for an unknown site and a site of someone else: a site's existence never leaks. */
export const notAssignedToSiteMessage = "You are not assigned to this site";
export const siteRequiredMessage = "Please select a site first";
export const contactTypeRequiredMessage = "Contact type is required";

/** Patient data is site-scoped (design §4): staff see the patients of their sites, administrators all. */
export function patientScope(user: SessionUser | null): SQL | undefined {
  if (user?.isAdmin) return undefined;
  return inSites(patients.recorderSiteId, user);
}

const mayUseSite = (user: SessionUser | null, siteId: number) =>
  Boolean(user?.isAdmin || user?.siteIds.includes(siteId));

const barcodeStatement = builtOnce();

/**
 * The next barcode of a site (design §4): its prefix (ending in "-") and its running number padded to
 * 6 digits, e.g. BUD-000042. The counter row is updated in the caller's transaction, so concurrent
 * creates on one site wait for each other and never share a number. Null when there is no such site.
 */
export async function allocateBarcode(tx: Tx | Db, siteId: number): Promise<string | null> {
  // Built once: the counter row stays locked until the commit, and building is time spent holding it.
  const allocate = barcodeStatement(tx, "allocate", () =>
    tx
      .update(sites)
      .set({ lastBarcodeNumber: sql`${sites.lastBarcodeNumber} + 1` })
      .where(eq(sites.id, sql.placeholder("siteId")))
      .returning({ prefix: sites.barcodePrefix, number: sites.lastBarcodeNumber })
      .prepare(namedByText),
  );
  const [row] = await allocate.execute({ siteId });
  return row ? `${row.prefix}${String(row.number).padStart(6, "0")}` : null;
}

/** Derived list values (design §4). Drizzle leaves single-table columns unqualified, so the
 * correlated subqueries name the patient's id in full. */
const patientIdRef = sql.raw('"patients"."id"');
export const patientName = sql<string>`${patients.lastName} || ' ' || ${patients.firstName}`;
/** The first PHONE contact. */
export const patientPhone = sql<string | null>`(select c.value from ${patientContacts} c
  where c.patient_id = ${patientIdRef} and c.contact_type = 'PHONE' order by c.position, c.id limit 1)`;
/** The internal code of the project of the patient's most recent active study assignment. */
export const patientProjectInternalCode = sql<string | null>`(select p.internal_code
  from ${studyPatients} sp
  join ${studies} s on s.id = sp.study_id
  join ${projects} p on p.id = s.project_id
  where sp.patient_id = ${patientIdRef} and sp.active
  order by sp.start_date desc nulls last, sp.id desc limit 1)`;
/** The patient's contacts in their order, read with the record in one query (issue 14). */
const patientContactsJson = sql<Contact[]>`coalesce((select json_agg(json_build_object('id', c.id,
  'contactType', c.contact_type, 'value', c.value, 'notes', c.notes) order by c.position, c.id)
  from ${patientContacts} c where c.patient_id = ${patientIdRef}), '[]'::json)`;
/** The working name of that same study (the list's Study column, issue 15). */
export const patientStudyWorkingName = sql<string | null>`(select s.working_name
  from ${studyPatients} sp
  join ${studies} s on s.id = sp.study_id
  where sp.patient_id = ${patientIdRef} and sp.active
  order by sp.start_date desc nulls last, sp.id desc limit 1)`;
const hasActiveAssignment = sql`exists (select 1 from ${studyPatients} sp
  where sp.patient_id = ${patientIdRef} and sp.active)`;

type Contact = PatientInput["contacts"][number];
const contactKey = (contacts: Contact[]) =>
  JSON.stringify(contacts.map((c) => [c.contactType, c.value, blankToNull(c.notes)]));

/** A new patient's address and contacts rows, each insert built once (per number of contacts). */
const childStatements = builtOnce();

/** Writes the patient's own address row (kept across saves, so its id stays). */
async function writeAddress(tx: Tx | Db, address: PatientInput["address"], addressId: number | null) {
  const values = {
    countryCode: blankToNull(address.countryCode),
    city: blankToNull(address.city),
    streetAddress: blankToNull(address.streetAddress),
    postalCode: blankToNull(address.postalCode),
    additionalAddressLine: blankToNull(address.additionalAddressLine),
    addressType: address.addressType ?? "DEFAULT",
  };
  if (addressId !== null) {
    await tx.update(addresses).set(values).where(eq(addresses.id, addressId));
    return addressId;
  }
  const insert = childStatements(tx, "address", () =>
    tx
      .insert(addresses)
      .values(Object.fromEntries(Object.keys(values).map((key) => [key, sql.placeholder(key)])) as never)
      .returning({ id: addresses.id })
      .prepare(namedByText),
  );
  const [row] = await insert.execute(values);
  return row.id;
}

/** The contacts in their order; rewritten only when they changed, so unchanged ones keep their ids. */
async function writeContacts(tx: Tx | Db, patientId: number, contacts: Contact[], before?: Contact[]) {
  if (before && contactKey(before) === contactKey(contacts)) return;
  await tx.delete(patientContacts).where(eq(patientContacts.patientId, patientId));
  await insertContacts(tx, patientId, contacts);
}

/** A new patient's contacts (it has none to replace: one round trip less on every create). */
async function insertContacts(tx: Tx | Db, patientId: number, contacts: Contact[]) {
  if (contacts.length === 0) return;
  const insert = childStatements(tx, `${contacts.length} contacts`, () =>
    tx
      .insert(patientContacts)
      .values(
        contacts.map((_, position) => ({
          patientId: sql.placeholder("patientId"),
          position,
          contactType: sql.placeholder(`contactType${position}`),
          value: sql.placeholder(`value${position}`),
          notes: sql.placeholder(`notes${position}`),
        })) as never,
      )
      .prepare(namedByText),
  );
  const values: Record<string, unknown> = { patientId };
  contacts.forEach((contact, position) => {
    values[`contactType${position}`] = contact.contactType;
    values[`value${position}`] = contact.value;
    values[`notes${position}`] = blankToNull(contact.notes);
  });
  await insert.execute(values);
}

function checkContacts(contacts: Contact[]) {
  const errors: Record<string, string> = {};
  contacts.forEach((contact, index) => {
    if (!contact.contactType) errors[`contacts.${index}.contactType`] = contactTypeRequiredMessage;
  });
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/** The patient's own columns from the input; barcode and recorder site are the server's. */
function detailColumns(input: PatientInput) {
  const d = input.patientDetail;
  const status = input.status ?? activePatientStatus;
  return {
    status,
    // The inactivity reason belongs to an inactive patient only.
    statusDetails: status === activePatientStatus ? null : blankToNull(input.statusDetails),
    firstName: d.firstName.trim(),
    lastName: d.lastName.trim(),
    ssn: blankToNull(d.ssn),
    birthName: blankToNull(d.birthName),
    birthDate: blankToNull(d.birthDate),
    birthCountryCode: blankToNull(d.birthCountryCode),
    birthCity: blankToNull(d.birthCity),
    motherName: blankToNull(d.motherName),
    sex: d.sex ?? "UNK",
    notes: blankToNull(d.notes),
  };
}

/**
 * The columns of a new patient of `siteId`: its own address row and a fresh barcode. The barcode comes
 * last: its counter row stays locked until the transaction ends, and the site's other creates wait.
 */
async function newPatientColumns(tx: Tx | Db, input: PatientInput, siteId: number) {
  const addressId = await writeAddress(tx, input.address, null);
  const barcode = await allocateBarcode(tx, siteId);
  if (!barcode) throw validationError({ recorderSiteId: notAssignedToSiteMessage });
  return { ...detailColumns(input), barcode, recorderSiteId: siteId, addressId };
}

/**
 * A name as the duplicate check compares it: trimmed, lower case, without accents (search_fold). A
 * column is folded as patients_same_name_idx folds it (migration 0024), so the index answers.
 */
const foldedName = (value: SQLWrapper | string) =>
  typeof value === "string" ? sql`search_fold(btrim(${value}::text))` : sql`search_fold(btrim(${value}))`;

/** Another patient of this name and birth date at the site: the condition on a patients row. */
const sameNameAt = (site: SQLWrapper, birthDate: SQLWrapper, firstName: string, lastName: string) =>
  sql`${patients.recorderSiteId} = ${site} and ${patients.birthDate} = ${birthDate}
    and ${foldedName(patients.lastName)} = ${foldedName(lastName)}
    and ${foldedName(patients.firstName)} = ${foldedName(firstName)}`;

/** The 409 of a patient whose name and birth date another patient of the site has: a question. */
export const confirmDuplicateDetail = "Send confirmDuplicate: true to save the patient all the same";

type Identity = { ssn: string | null; firstName: string; lastName: string; birthDate: string | null };

/** The identity a stored patient (its view) had before this save. */
function identityOf(existing: Row): Identity {
  const d = existing.patientDetail as Identity;
  return { ssn: d.ssn, firstName: d.firstName, lastName: d.lastName, birthDate: d.birthDate };
}

/**
 * No duplicate patients (issue 46, point 4). An SSN another patient has, at any site, is refused on
 * the SSN field, naming that patient's barcode when the user sees its site, and naming nothing
 * otherwise. A name and birth date another patient of the same site has is asked first (409) unless
 * the save confirms it (`confirmDuplicate`). Compared as the database folds them: the SSN by
 * ssn_fold (no case, spaces or punctuation), the names by search_fold (no case or accents) trimmed.
 * An edit is checked against the other patients, and only for what it changes: a patient keeping its
 * SSN, or its name and birth date, is not asked again (patients that shared them before this rule
 * keep their other changes). Saves of one SSN, and of one name and birth date at a site, take turns
 * on transaction advisory locks (any process) and each reads, once it holds them, what the others
 * committed (READ COMMITTED), so of two simultaneous creates one wins. Always the SSN's lock first.
 * The locks and the read are two round trips, taken only when something is to be checked.
 */
async function checkDuplicates(
  tx: Tx,
  user: SessionUser | null,
  patient: Identity & { siteId: number; confirmed: boolean },
  existing: Row | null,
) {
  const before = existing ? identityOf(existing) : null;
  const ssn = patient.ssn ? sql`ssn_fold(${patient.ssn}::text)` : null;
  const named = Boolean(patient.birthDate) && !patient.confirmed;
  if (!ssn && !named) return;
  const site = sql`${patient.siteId}::int`;
  const birthDate = sql`${patient.birthDate}::date`;
  const { firstName: first, lastName: last } = patient;
  // What is to be checked: a new patient's SSN and name, what an edit changes, folded by the database
  // in the statement that takes the locks.
  const ssnChanged = ssn
    ? sql`${ssn} is not null and ${ssn} is distinct from ssn_fold(${before?.ssn ?? null}::text)`
    : sql`false`;
  const nameChanged = named
    ? before
      ? sql`not (${birthDate} is not distinct from ${before.birthDate}::date
          and ${foldedName(first)} = ${foldedName(before.firstName)}
          and ${foldedName(last)} = ${foldedName(before.lastName)})`
      : sql`true`
    : sql`false`;
  const ssnKey = sql`'patients ssn ' || ${ssn ?? sql`''`}`;
  const nameKey = sql`'patients name ' || ${site}::text || ' ' || ${birthDate}::text || ' '
    || ${foldedName(last)} || ' ' || ${foldedName(first)}`;
  const [asked] = await queryRows<{ ssn: boolean; name: boolean }>(
    tx,
    sql`select ${ssnChanged} as ssn, ${nameChanged} as name,
      case when ${ssnChanged} then pg_advisory_xact_lock(hashtextextended(${ssnKey}, 0)) end,
      case when ${nameChanged} then pg_advisory_xact_lock(hashtextextended(${nameKey}, 0)) end`,
  );
  if (!asked.ssn && !asked.name) return;
  const other = sql`${patients.id} is distinct from ${(existing?.id as number | undefined) ?? null}::int`;
  // A patient the user sees first: only that one's barcode may be named.
  const seen = patientScope(user) ?? sql`true`;
  const parts: SQL[] = [];
  if (asked.ssn)
    parts.push(sql`(select 'ssn' as kind, ${patients.barcode} as barcode, ${seen} as seen from ${patients}
      where ssn_fold(${patients.ssn}) = ${ssn} and ${other} order by 3 desc, ${patients.id} limit 1)`);
  if (asked.name)
    parts.push(sql`(select 'name' as kind, ${patients.barcode} as barcode, true as seen from ${patients}
      where ${sameNameAt(site, birthDate, first, last)} and ${other} order by ${patients.id} limit 1)`);
  const found = await queryRows<{ kind: "ssn" | "name"; barcode: string; seen: boolean }>(
    tx,
    sql.join(parts, sql` union all `),
  );
  const sameSsn = found.find((row) => row.kind === "ssn");
  if (sameSsn)
    throw validationError({
      "patientDetail.ssn": sameSsn.seen ? ssnExistsMessage(sameSsn.barcode) : ssnExistsElsewhereMessage,
    });
  const sameName = found.find((row) => row.kind === "name");
  if (sameName) throw new AppError(409, sameNamePatientMessage(sameName.barcode), [], confirmDuplicateDetail);
}

/**
 * The birth dates the configured age bounds allow today (MINIMUM_PATIENT_AGE and MAXIMUM_PATIENT_AGE,
 * the values /config.json gives the browser), a day wider at each end for the browser's time zone.
 */
function birthDates() {
  const { minimumPatientAge, maximumPatientAge } = loadConfig();
  return birthDateRule(toIsoDate(new Date()), minimumPatientAge, maximumPatientAge, 1);
}

/**
 * Patients (spec §2.5, §3, §4; design §4): the record with its patientDetail part, its own address
 * row and its contacts, all written in one transaction; site-scoped; barcode generated on create.
 */
export const patientsResource = defineResource<PatientInput>({
  name: "patients",
  table: patients,
  validate: (input) => validatePatient(input, birthDates()),
  scope: patientScope,
  sort: {
    id: patients.id,
    barcode: patients.barcode,
    // Last name, then first name, in the users' language (served by the name indexes).
    name: [byName(patients.lastName), byName(patients.firstName)],
    birthDate: patients.birthDate,
    ssn: patients.ssn,
    status: patients.status,
  },
  /**
   * Name, barcode, SSN and phones, by word ("Kiss Anna" finds Anna Kiss): all are in the patient's
   * search text, kept by the database on every write, so every word is one condition on one trigram
   * index (a 50,000-patient site: "kovacs anna" 200 → 1 ms; decision 134).
   */
  search: [foldedText(patients.searchText)],
  searchByWord: true,
  filters: {
    /** The active site's patients; a site that is not the user's gives no rows (scope). */
    siteId: {
      schema: idParam("Site must be a number"),
      where: (siteId: number) => eq(patients.recorderSiteId, siteId),
    },
    /** Only patients with an active study assignment (the patient selector of spec §4). */
    onlyAssigned: {
      schema: booleanParam,
      where: (value: "true" | "false") => (value === "true" ? hasActiveAssignment : undefined),
    },
    /**
     * Patients born on this day, of this first and last name compared as a save compares them
     * (trimmed, in any case, without accents): with siteId, the patient form's question before it
     * saves a patient another one of the site may already be (issue 46), from one index.
     */
    birthDate: {
      schema: z.string().refine(isValidIsoDate, "Birth date must be a real date written as yyyy-MM-dd"),
      where: (birthDate: string) => eq(patients.birthDate, birthDate),
    },
    firstName: {
      schema: z.string().max(100, "First name must be at most 100 characters"),
      where: (name: string) => sql`${foldedName(patients.firstName)} = ${foldedName(name)}`,
    },
    lastName: {
      schema: z.string().max(100, "Last name must be at most 100 characters"),
      where: (name: string) => sql`${foldedName(patients.lastName)} = ${foldedName(name)}`,
    },
  },
  presets: {
    /**
     * GET /api/patients?forSelect=true&siteId&onlyAssigned=true&search=… is the patient lookup of
     * spec §7: the scoped list in the select format (id, uuid, barcode, names, ssn, project code),
     * `search` as its term, by name, 100 a page unless the caller says otherwise.
     */
    forSelect: {
      defaults: { order: "name", direction: "asc", pagesize: String(lookupPageSizes.patients) },
      renames: { search: "searchTerm" },
      fixed: { format: "select" },
    },
  },
  exportText: {
    status: (row) =>
      optionLabel(patientStatuses, isActiveStatus(row.status) ? activePatientStatus : inactivePatientStatus),
  },
  formats: {
    view: {
      fields: {
        id: patients.id,
        uuid: patients.uuid,
        version: patients.version,
        barcode: patients.barcode,
        status: patients.status,
        statusDetails: patients.statusDetails,
        recorderSiteId: patients.recorderSiteId,
        addressId: patients.addressId,
        patientDetail: {
          firstName: patients.firstName,
          lastName: patients.lastName,
          ssn: patients.ssn,
          birthName: patients.birthName,
          birthDate: patients.birthDate,
          birthCountryCode: patients.birthCountryCode,
          birthCity: patients.birthCity,
          motherName: patients.motherName,
          sex: patients.sex,
          notes: patients.notes,
        },
        address: {
          id: addresses.id,
          countryCode: addresses.countryCode,
          city: addresses.city,
          streetAddress: addresses.streetAddress,
          postalCode: addresses.postalCode,
          additionalAddressLine: addresses.additionalAddressLine,
          addressType: addresses.addressType,
        },
        contacts: patientContactsJson,
      },
      joins: (query) => query.leftJoin(addresses, eq(addresses.id, patients.addressId)),
    },
    /** The list rows of spec §2.5 with the derived values of design §4. */
    list: {
      fields: {
        id: patients.id,
        uuid: patients.uuid,
        barcode: patients.barcode,
        name: patientName,
        firstName: patients.firstName,
        lastName: patients.lastName,
        birthDate: patients.birthDate,
        ssn: patients.ssn,
        phone: patientPhone,
        projectInternalCode: patientProjectInternalCode,
        studyWorkingName: patientStudyWorkingName,
        status: patients.status,
        statusDetails: patients.statusDetails,
        addressId: patients.addressId,
        recorderSiteId: patients.recorderSiteId,
      },
    },
    /** The patient lookup rows of spec §3. */
    select: {
      fields: {
        id: patients.id,
        uuid: patients.uuid,
        barcode: patients.barcode,
        firstName: patients.firstName,
        lastName: patients.lastName,
        ssn: patients.ssn,
        projectInternalCode: patientProjectInternalCode,
        // Selectors mark inactive patients.
        status: patients.status,
      },
    },
  },
  toRow: async (input, { tx, user, existing }) => {
    checkContacts(input.contacts);
    const columns = detailColumns(input);
    // The duplicate question is a person's to answer: the system's own writes (the demo seed, the
    // factories; no user id) are not asked it, but an SSN another patient has is refused for them too.
    const confirmed = input.confirmDuplicate === true || user?.id == null;
    const identity = { ...columns, confirmed };
    if (existing) {
      await checkDuplicates(tx, user, { ...identity, siteId: existing.recorderSiteId as number }, existing);
      // Barcode and recorder site stay as created; the address row keeps its id.
      const addressId = await writeAddress(tx, input.address, (existing.addressId as number | null) ?? null);
      return { ...columns, addressId };
    }
    const siteId = input.recorderSiteId;
    if (typeof siteId !== "number") throw validationError({ recorderSiteId: siteRequiredMessage });
    if (!mayUseSite(user, siteId)) throw validationError({ recorderSiteId: notAssignedToSiteMessage });
    await checkDuplicates(tx, user, { ...identity, siteId }, null);
    return newPatientColumns(tx, input, siteId);
  },
  writeChildren: async (id, input, { tx, existing }) =>
    existing
      ? writeContacts(tx, id, input.contacts, existing.contacts as Contact[] | undefined)
      : insertContacts(tx, id, input.contacts),
  // The owned address goes with the patient (contacts cascade); assignments and visits refuse (409).
  beforeDelete: async (_id, { tx, existing }) => {
    const addressId = existing?.addressId as number | null;
    if (addressId) await tx.delete(addresses).where(eq(addresses.id, addressId));
  },
});
