import { csrfHeader, type Envelope, type FieldError } from "@trialdesk/domain";

/**
 * The one HTTP client of the app (spec §7, §8). Every call sends cookies and JSON, adds the bearer
 * token when there is one, unwraps the envelope and turns failures into an ApiError carrying the
 * spec's message, code and detail.
 */
export type Method = "get" | "post" | "put" | "delete";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly detail: string,
    readonly status: number,
    readonly fieldErrors: FieldError[] = [],
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
  /** Only a 400 carries field errors to place against the form's fields (spec §5). */
  get isBadRequest() {
    return this.status === 400;
  }
  get isConflict() {
    return this.status === 409;
  }
}

type Session = {
  /** The current access token, if any. */
  accessToken: () => string | null;
  /** The CSRF token issued with it; sent on every POST, PUT and DELETE. */
  csrfToken: () => string | null;
  /** Called once on a 401; resolves true when a new access token was obtained. */
  refresh: () => Promise<boolean>;
  /** Called when a 401 survives a refresh: the session is over. */
  signedOut: () => void;
};

let apiBaseUrl = "/api";
let session: Session = {
  accessToken: () => null,
  csrfToken: () => null,
  refresh: async () => false,
  signedOut: () => {},
};

export function configureApi(options: { apiBaseUrl?: string; session?: Partial<Session> }) {
  if (options.apiBaseUrl) apiBaseUrl = options.apiBaseUrl.replace(/\/$/, "");
  if (options.session) session = { ...session, ...options.session };
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

type RequestOptions = {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  retry?: boolean;
  /** The answer is a file (a CSV export), not an envelope; failures still come as envelopes. */
  file?: boolean;
  /** Times a read has been asked again after "too many at once" (429) or "busy" (503). */
  waited?: number;
};

/**
 * A read refused for now — the account has its share of searches and exports running (429), or the
 * server's turns for exports are taken (503) — is asked again after the Retry-After it names, twice at
 * most: a page that opens several lists at once is not a person who needs telling. Writes never are.
 */
const maxWaits = 2;
const retryAfterMs = (response: Response) => {
  const seconds = Number(response.headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, 5) * 1000 : null;
};

/** A file the server sends: its bytes and the name its Content-Disposition suggests. */
export type Download = { blob: Blob; filename: string | null };

const filenameOf = (disposition: string | null) => disposition?.match(/filename="([^"]+)"/)?.[1] ?? null;

async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const url = withQuery(
    path.startsWith("http") || path.startsWith("/") ? path : `${apiBaseUrl}/${path}`,
    options.query,
  );
  const headers: Record<string, string> = { "Content-Type": "application/json", ...options.headers };
  const token = session.accessToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const csrf = session.csrfToken();
  if (csrf && method !== "get") headers[csrfHeader] = csrf;
  let response: Response;
  try {
    response = await fetch(url, {
      method: method.toUpperCase(),
      headers,
      credentials: "include",
      body: method === "post" || method === "put" ? JSON.stringify(options.body ?? {}) : undefined,
    });
  } catch (error) {
    throw new ApiError(
      `Failed to ${method} data`,
      `${method.toUpperCase()}_ERROR`,
      error instanceof Error ? error.message : String(error),
      0,
    );
  }
  const wait =
    method === "get" && (response.status === 429 || response.status === 503) ? retryAfterMs(response) : null;
  if (wait !== null && (options.waited ?? 0) < maxWaits) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    return request<T>(method, path, { ...options, waited: (options.waited ?? 0) + 1 });
  }
  if (response.status === 401 && options.retry !== false && token) {
    if (await session.refresh()) return request<T>(method, path, { ...options, retry: false });
    session.signedOut();
  }
  if (options.file && response.ok) {
    const download: Download = {
      blob: await response.blob(),
      filename: filenameOf(response.headers.get("content-disposition")),
    };
    return download as T;
  }
  let envelope: Envelope<T> | null = null;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    envelope = null;
  }
  const header = envelope?.header;
  if (!response.ok || header?.result === "error") {
    throw new ApiError(
      header?.errorMessage || `Failed to ${method} data`,
      header?.errorCode || `${method.toUpperCase()}_ERROR`,
      header?.errorDetail || "No additional error details",
      response.status,
      response.status === 400 ? (header?.fieldErrors ?? []) : [],
      header?.requestId ?? null,
    );
  }
  return (envelope?.data ?? null) as T;
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>("get", path, { query }),
  post: <T>(path: string, body?: unknown, headers?: Record<string, string>) =>
    request<T>("post", path, { body, headers }),
  put: <T>(path: string, body?: unknown, headers?: Record<string, string>) =>
    request<T>("put", path, { body, headers }),
  delete: <T>(path: string, headers?: Record<string, string>) => request<T>("delete", path, { headers }),
  /** A file download through the session's token (a plain link cannot carry the bearer header). */
  download: (path: string, query?: Query) => request<Download>("get", path, { query, file: true }),
  /** For calls made before or outside a session (token refresh): no 401 retry. */
  raw: <T>(method: Method, path: string, body?: unknown) => request<T>(method, path, { body, retry: false }),
};
