import type { CalculationMode } from "../constants";
import { dayNumberOf, isoOfDayNumber } from "../rules/dates";
import type { SdvStatus } from "../rules/source-verification";
import {
  stateAsOf,
  type VisitKind,
  type VisitState,
  type VisitWindow,
  visitKinds,
  windowAround,
} from "../rules/visit-windows";

/** GET patient-visit-summary/{studyUuid} → data: the grid of /visit-summary/{studyUuid}. */
export type VisitSummaryVisit = {
  id: number;
  visitName: string;
  visitType: number;
  /** The visit's place in the studyplan and the entry that places it; all null off the plan. */
  sequence: number | null;
  daysFromStart: number | null;
  allowedDaysBefore: number | null;
  allowedDaysAfter: number | null;
  calculationMode: CalculationMode | null;
};

/**
 * One cell: the recorded visit's date (if any), the planned date and the state on the asked day.
 * Kept small, as a grid holds tens of thousands: fields without a value are left out, and the window
 * follows from the expected date and the column's allowances (cellWindow).
 */
export type VisitSummaryCell = {
  visitId: number;
  visitDate?: string;
  expectedDate?: string;
  state: VisitState;
  /** Only when true: a booking outside its window. */
  bookedOutsideWindow?: true;
};

/** A cell's window: its expected date widened by its column's allowances (the engine's rule). */
export const cellWindow = (cell: VisitSummaryCell, column: VisitSummaryVisit | undefined): VisitWindow => ({
  expectedDate: cell.expectedDate ?? null,
  ...windowAround(cell.expectedDate, column),
});

export type VisitSummaryProfile = {
  barcode: string;
  firstName: string;
  lastName: string;
  /** The Screen Nr column; beyond the spec's field list. */
  screenNr: string | null;
  patientUuid: string;
  /** The row's assignment is active (else the latest, closed one). */
  active: boolean;
  /** One cell per plan visit, recorded or not, then the recorded visits the plan does not hold. */
  visits: VisitSummaryCell[];
};

export type VisitSummary = {
  /** The study's visits, in studyplan order: one grid column each. */
  studyVisits: VisitSummaryVisit[];
  patientStudyProfiles: VisitSummaryProfile[];
};

/**
 * The same grid as the screen fetches it (`?compact=true`; issue 14: 80,000 cells as objects were
 * 7.5 MB of JSON built in PostgreSQL): one array per patient, its cells packed in one string.
 */
export type CompactVisitSummary = {
  studyVisits: VisitSummaryVisit[];
  /** The day the states are for. */
  asOf: string;
  /** The day the cells' dates are counted from (visitSummaryDayZero). */
  dayZero: string;
  rows: VisitSummaryRow[];
  /**
   * Source verification of the sampled patients' visits (issue 44): [patientUuid, visitId, state],
   * the state that most needs a monitor among the visit's records (REOPENED, then PENDING, then
   * VERIFIED); a cell without one needs none.
   */
  sdv?: [patientUuid: string, visitId: number, status: SdvStatus][];
};

/**
 * The day a packed cell's days count from: fixed, so that PostgreSQL keeps each stored window's cell
 * written (visit_schedule.cell) instead of writing 80,000 of them for every summary (decision 183).
 */
export const visitSummaryDayZero = "2025-01-01";

/**
 * One patient: `cells` joins its cells with ";". A cell is `{visit id}{kind}{expected}`, then
 * `:{visit day}` when the visit has a date, then `!` for a booking outside its window:
 * - `kind`: a letter, `a` for the first of `visitKinds`, `b` for the second…;
 * - `expected`: the expected day, in days from `dayZero` (negative before it), empty when there is none;
 * - `visit day`: in days from the expected day (from `dayZero` when there is none), empty for the same
 *   day.
 * E.g. `31c680:2` is visit 31, booked 2 days after its expected day, 12 November 2026. A fifth fewer
 * bytes than each day in full (issue 14). The day's state follows from the kind and the window
 * (`stateAsOf`), the window from the expected date and the column (`windowAround`).
 */
export type VisitSummaryRow = [
  patientUuid: string,
  barcode: string,
  firstName: string,
  lastName: string,
  screenNr: string | null,
  active: boolean,
  cells: string,
];

/** A patient's row of the compact answer, from its fields and its packed cells. */
export const visitSummaryRow = (
  p: Pick<VisitSummaryProfile, "patientUuid" | "barcode" | "firstName" | "lastName" | "screenNr" | "active">,
  cells: string,
): VisitSummaryRow => [p.patientUuid, p.barcode, p.firstName, p.lastName, p.screenNr, p.active, cells];

const packedCell = /^(\d+)([a-z])(-?\d*)(?::(-?\d*))?(!?)$/;
/** A kind's letter in a packed cell (VisitSummaryRow). */
export const visitKindLetter = (kind: VisitKind) => String.fromCharCode(97 + visitKinds.indexOf(kind));
const kindOfLetter = (letter: string): VisitKind | undefined => visitKinds[letter.charCodeAt(0) - 97];

/**
 * Reads compact rows back into profiles (cells in column order, as the plain answer has them). Dates
 * are written from day numbers, whose texts isoOfDayNumber keeps, so decoding the rows in view, or
 * all of them, stays cheap.
 */
export function visitSummaryDecoder(summary: Pick<CompactVisitSummary, "studyVisits" | "asOf" | "dayZero">) {
  const columns = new Map(summary.studyVisits.map((column, index) => [column.id, { column, index }]));
  const zero = dayNumberOf(summary.dayZero);
  const date = (days: number): string => isoOfDayNumber(zero + days);
  const cell = (packed: string): VisitSummaryCell => {
    const match = packedCell.exec(packed);
    const kind = match ? kindOfLetter(match[2]) : undefined;
    if (!match || !kind) throw new Error(`Unreadable visit summary cell: ${packed}`);
    const [, id, , expectedDays, visitDays, outside] = match;
    const visitId = Number(id);
    const expected = expectedDays === "" ? null : Number(expectedDays);
    let state: VisitState;
    if (kind !== "open") state = kind;
    else if (expected === null) state = stateAsOf({ kind, windowStart: null, windowEnd: null }, summary.asOf);
    else {
      // Only open visits depend on the day: their window is the expected day widened by the column's
      // allowances (windowAround's rule), counted in the answer's days so each date is written once.
      const placing = columns.get(visitId)?.column;
      const windowStart = date(expected - (placing?.allowedDaysBefore ?? 0));
      const windowEnd = date(expected + (placing?.allowedDaysAfter ?? 0));
      state = stateAsOf({ kind, windowStart, windowEnd }, summary.asOf);
    }
    const value: VisitSummaryCell = { visitId, state };
    if (visitDays !== undefined) value.visitDate = date((expected ?? 0) + Number(visitDays));
    if (expected !== null) value.expectedDate = date(expected);
    if (outside === "!") value.bookedOutsideWindow = true;
    return value;
  };
  const place = (visitId: number) => columns.get(visitId)?.index ?? Number.MAX_SAFE_INTEGER;
  return ([patientUuid, barcode, firstName, lastName, screenNr, active, cells]: VisitSummaryRow) => {
    const visits = cells === "" ? [] : cells.split(";").map(cell);
    visits.sort((a, b) => place(a.visitId) - place(b.visitId) || a.visitId - b.visitId);
    const profile: VisitSummaryProfile = {
      barcode,
      firstName,
      lastName,
      screenNr,
      patientUuid,
      active,
      visits,
    };
    return profile;
  };
}

/**
 * The compact form of a plain answer as of `asOf`, cells packed as the server packs them: for tests
 * and fixtures of the screen (the server packs in SQL). Each cell's kind is read from its state.
 */
export function compactVisitSummary(
  summary: VisitSummary,
  asOf: string,
  dayZero = visitSummaryDayZero,
): CompactVisitSummary {
  const days = (iso: string) => dayNumberOf(iso) - dayNumberOf(dayZero);
  const packed = (cell: VisitSummaryCell) => {
    const kind =
      cell.state === "due" || cell.state === "overdue" || cell.state === "upcoming" ? "open" : cell.state;
    const expected = cell.expectedDate === undefined ? null : days(cell.expectedDate);
    const visitDays = cell.visitDate === undefined ? null : days(cell.visitDate) - (expected ?? 0);
    return `${cell.visitId}${visitKindLetter(kind)}${expected ?? ""}${
      visitDays === null ? "" : `:${visitDays || ""}`
    }${cell.bookedOutsideWindow ? "!" : ""}`;
  };
  return {
    studyVisits: summary.studyVisits,
    asOf,
    dayZero,
    rows: summary.patientStudyProfiles.map((p) => visitSummaryRow(p, p.visits.map(packed).join(";"))),
  };
}

/** The plain answer (spec §3) of a compact one. */
export function decodeVisitSummary(summary: CompactVisitSummary): VisitSummary {
  const decode = visitSummaryDecoder(summary);
  return { studyVisits: summary.studyVisits, patientStudyProfiles: summary.rows.map(decode) };
}

/** The word a cell shows when the patient has no visit date for that visit. */
export const visitSummaryAvailable = "available";

/** What a summary cell shows: the patient's visit date for the visit, else "available". */
export function visitSummaryCell(
  profile: { visits: readonly { visitId: number; visitDate: string | null }[] },
  visitId: number,
): string {
  return profile.visits.find((visit) => visit.visitId === visitId)?.visitDate ?? visitSummaryAvailable;
}
