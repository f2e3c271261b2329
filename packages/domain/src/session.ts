/** Shapes of the session and frame calls (spec §3, §7; design §3). */

/** GET /config.json */
export type AppConfig = {
  apiBaseUrl: string;
  defaultPageSize: number;
  inactivityTimeoutSeconds: number;
  minimumPatientAge: number;
  maximumPatientAge: number;
  /** The study the home page's Visit summary tile points at (an std- uuid). */
  summaryStudyUuid: string;
};

/** POST /api/token → data. accessTokenExpire is in seconds; the client keeps it as milliseconds. */
export type TokenResponse = { accessToken: string; accessTokenExpire: number; csrfToken: string };

/** GET /api/me → data. */
export type SignedInUser = {
  id: number;
  uuid: string;
  email: string;
  profile: { firstName: string; lastName: string };
  isAdmin: boolean;
  siteIds: number[];
  /**
   * "user": staff or administrator; "monitor": a sponsor's monitor (issue 44), who reads only the
   * studies of their current assignments, never a patient's identity, and has no sites.
   */
  kind: "user" | "monitor";
};

export function displayName(user: Pick<SignedInUser, "profile">): string {
  return `${user.profile.firstName} ${user.profile.lastName}`.trim();
}

/** POST /api/auth → data. */
export type AuthResponse = {
  user: SignedInUser;
  accessToken: string;
  accessTokenExpire: number;
  csrfToken: string;
};

/** GET /api/me/menu → data: MenuItem[]. */
export type MenuItem = {
  key: string;
  label: string;
  route: string | null;
  icon: string;
  iconVariant: string | null;
  children: MenuItem[];
};

/** GET /api/me/sites → data: {items}: the sites the signed-in user may choose as active site. */
export type SiteOption = { id: number; uuid: string; code: string; shortName: string; city: string | null };

/** GET /api/audit?resource&uuid → data: {items: AuditEvent[]}, newest first. */
export type AuditChange = { field: string; old: unknown; new: unknown };
export type AuditEvent = {
  id: number;
  at: string;
  userId: number | null;
  userName: string | null;
  requestId: string;
  resource: string;
  uuid: string;
  action: "create" | "update" | "delete";
  changes: AuditChange[];
  reason: string | null;
};

/** The header a client sets to record why it changed a record (kept in the audit trail). */
export const changeReasonHeader = "x-change-reason";
/** The header that carries the csrfToken on every POST, PUT and DELETE made with a bearer token. */
export const csrfHeader = "x-csrf-token";
