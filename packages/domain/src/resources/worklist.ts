import type { VisitStatus } from "../constants";
import type { VisitState, VisitWindow, WorklistState } from "../rules/visit-windows";

/** GET /api/worklist rows: one per active assignment × plan visit of the site's patients. */
export type WorklistRow = VisitWindow & {
  /** "{studyPatientId}-{visitId}": the row's key. */
  rowId: string;
  patientId: number;
  patientUuid: string;
  barcode: string;
  patientName: string;
  screenNr: string | null;
  studyId: number;
  studyUuid: string;
  studyName: string;
  visitId: number;
  visitName: string;
  visitType: number;
  state: VisitState;
  bookedOutsideWindow: boolean;
  /** A booking whose day has passed without an outcome (bookingPassedText). */
  bookingPassed: boolean;
  /** The row's automatic protocol deviation (a missed visit, or one completed out of window). */
  deviationUuid: string | null;
  deviationStatus: string | null;
  daysOutside: number | null;
  patientVisitId: number | null;
  patientVisitUuid: string | null;
  visitDate: string | null;
  visitStatus: VisitStatus | null;
};

/** The worklist's data: a page of rows, and how many rows each state has (the filter chips). */
export type WorklistData = {
  items: WorklistRow[];
  pagination: { page: number; pageSize: number; total: number };
  counts: Record<WorklistState, number>;
};
