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
  /** The patient's status: any but 1 is inactive (isActiveStatus); the worklist marks them. */
  patientStatus: number;
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
  /** The recorded visit's time, "HH:mm" (a booking's hour). */
  visitTime: string | null;
  visitStatus: VisitStatus | null;
};

/**
 * The worklist's orders: by the window's end (the default), or by the booked date and time (a
 * visit's date and time as recorded; rows without one last).
 */
export const worklistOrders = ["windowEnd", "visitDate"] as const;
export type WorklistOrder = (typeof worklistOrders)[number];

/** The worklist's data: a page of rows, and how many rows each state has (the filter chips). */
export type WorklistData = {
  items: WorklistRow[];
  pagination: { page: number; pageSize: number; total: number };
  counts: Record<WorklistState, number>;
};

/** One row of a patient's visit schedule: the engine's row for a visit of an assignment. */
export type PatientScheduleRow = VisitWindow & {
  visitId: number;
  visitName: string;
  visitType: number;
  /** Its place in the plan from 1; null for a recorded visit the plan does not hold. */
  sequence: number | null;
  state: VisitState;
  bookedOutsideWindow: boolean;
  bookingPassed: boolean;
  /** The record that counts for the visit: its date, time and status. */
  patientVisitUuid: string | null;
  visitDate: string | null;
  visitTime: string | null;
  visitStatus: VisitStatus | null;
};

/** A patient's study assignment with its visit schedule (GET /api/worklist/schedule, issue 46). */
export type PatientScheduleAssignment = {
  studyPatientUuid: string;
  studyId: number;
  studyUuid: string;
  studyName: string;
  screenNr: string | null;
  startDate: string | null;
  active: boolean;
  closeDate: string | null;
  rows: PatientScheduleRow[];
};

/** GET /api/worklist/schedule?patientId=: the patient's assignments, active first, latest first. */
export type PatientSchedule = { patientId: number; assignments: PatientScheduleAssignment[] };
