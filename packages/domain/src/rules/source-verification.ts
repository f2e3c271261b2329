/**
 * Source-data verification (issue 44): which patients a monitor must verify, and the state of each
 * patient visit. Partial SDV as Oracle Clinical One keeps it: a share of the patients, the earliest
 * started first, and a patient once verified never leaves the sample.
 */

export const sdvStatuses = [
  { value: "NOT_REQUIRED", label: "Not required" },
  { value: "PENDING", label: "Pending" },
  { value: "VERIFIED", label: "Verified" },
  { value: "REOPENED", label: "Reopened" },
] as const;
export type SdvStatus = (typeof sdvStatuses)[number]["value"];
export const sdvStatusValues = sdvStatuses.map((s) => s.value) as SdvStatus[];

/** How many of a study's assignments at a site must be verified: ceil(percentage / 100 × assignments). */
export function sdvSampleSize(monitoredPercentage: number, assignments: number): number {
  const percentage = Math.min(100, Math.max(0, Math.round(monitoredPercentage)));
  // Integers only: (p × n + 99) / 100 rounded down is the ceiling, without binary fractions.
  return Math.floor((percentage * assignments + 99) / 100);
}

/** A monitor's swap: this patient was put into the sample ("IN") or taken out of it ("OUT"). */
export type SdvSwap = "IN" | "OUT";

export type SdvCandidate = {
  /** The assignment's id (study-patients). */
  id: number;
  /** yyyy-MM-dd, or null when not started yet (those come last). */
  startDate: string | null;
  /** The patient has a verified visit in the study: they stay in the sample. */
  verified: boolean;
  swapped?: SdvSwap | null;
};

const swapRank = (swapped: SdvSwap | null | undefined) => (swapped === "IN" ? 0 : swapped === "OUT" ? 2 : 1);

/**
 * The sample: every patient with a verified visit (even past the size), then the earliest started
 * until the size is reached. A monitor's swap stays through later changes: the patients swapped in
 * come before all others, those swapped out after all others.
 */
export function sdvSample(candidates: SdvCandidate[], size: number): Set<number> {
  const order = [...candidates].sort(
    (a, b) =>
      swapRank(a.swapped) - swapRank(b.swapped) ||
      (a.startDate ?? "9999-12-31").localeCompare(b.startDate ?? "9999-12-31") ||
      a.id - b.id,
  );
  const sample = new Set(order.filter((c) => c.verified).map((c) => c.id));
  for (const c of order) {
    if (sample.size >= size) break;
    sample.add(c.id);
  }
  return sample;
}

/** The stored side of a visit's verification. */
export type SdvRecord = {
  /** The patient is in the sample of the visit's study and site. */
  sampled: boolean;
  visitStatus: string;
  /** When a monitor last verified it (null: never). */
  verifiedAt: string | null;
  /** Changed since it was verified. */
  reopened: boolean;
};

/**
 * NOT_REQUIRED: patient not sampled (or nothing done yet to verify); PENDING: sampled and COMPLETED;
 * VERIFIED; REOPENED: verified, then its verified data changed.
 */
export function sdvStatus(visit: SdvRecord): SdvStatus {
  if (visit.verifiedAt !== null) return visit.reopened ? "REOPENED" : "VERIFIED";
  return visit.sampled && visit.visitStatus === "COMPLETED" ? "PENDING" : "NOT_REQUIRED";
}

/** Whether a monitor may verify a visit in this state. */
export const sdvVerifiable = (status: SdvStatus) => status === "PENDING" || status === "REOPENED";

/** The fields a monitor verifies against the source: changing one reopens a verified visit. */
export const sdvVerifiedFields = ["visitDate", "visitTime", "visitStatus", "visitResult", "notes"] as const;

/** Whether a save changes what was verified. */
export function reopensVerification(
  before: Partial<Record<(typeof sdvVerifiedFields)[number], unknown>>,
  after: Partial<Record<(typeof sdvVerifiedFields)[number], unknown>>,
): boolean {
  const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null) || (a ?? "") === (b ?? "");
  return sdvVerifiedFields.some((field) => !same(before[field], after[field]));
}

/** A verified visit with an open query counts as not verified (billing, the monitor's to-do). */
export const countsAsVerified = (status: SdvStatus, openQueries: number) =>
  status === "VERIFIED" && openQueries === 0;
