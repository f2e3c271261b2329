import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import type { AuthResponse, SignedInUser, TokenResponse } from "@trialdesk/domain";
import { createContext, type ReactNode, useContext, useEffect, useState, useSyncExternalStore } from "react";
import { ApiError, api, configureApi } from "../api/client";
import { type MySites, myMenu, mySites } from "../api/queries";
import { loadConfig } from "./config";
import { toast } from "./toast";

/**
 * The session of spec §4 "Authentication": status idle → loading → success | error; on start the
 * app reads its configuration, asks for a new access token with the refresh cookie, then loads the
 * user. Tokens live in memory only; the refresh token is an HttpOnly cookie the page never sees.
 */
export type SessionStatus = "idle" | "loading" | "success" | "error";
export type SessionState = { status: SessionStatus; user: SignedInUser | null; error: string | null };
export type Session = SessionState & {
  signIn: (email: string, password: string) => Promise<void>;
  signOut: () => Promise<void>;
};

export const tokenFailedMessage = "Failed to get access token";
export const userFailedMessage = "Failed to get user info";

/** Refresh this long before the access token expires (or at 80% of a shorter lifetime). */
const refreshLeadMs = 60_000;

/**
 * Every tab shares the refresh cookie and the server rotates it on each use (reusing a rotated one
 * revokes the whole family), so tabs take turns: a Web Lock serialises the token calls.
 */
function requestToken(sent?: () => void): Promise<TokenResponse> {
  const call = () => {
    const answer = api.raw<TokenResponse>("post", "token", { type: "refresh_token" });
    sent?.();
    return answer;
  };
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  return locks ? locks.request("trialdesk-token", call) : call();
}

/** Tabs tell each other who signed in or out, so no tab keeps showing a user the cookie no longer has. */
type SessionMessage = { type: "signed-in"; userUuid: string } | { type: "signed-out" };
const channelName = "trialdesk-session";

export function createSessionStore(
  options: {
    onSignedOut?: () => void;
    /** At start-up, given the user being loaded: asks beside it for what the first screen needs of them. */
    alongsideUser?: (user: Promise<SignedInUser>) => void;
  } = {},
) {
  let state: SessionState = { status: "idle", user: null, error: null };
  let tokenSent: () => void = () => {};
  /** Settles once the start-up's token call has gone out (or the start-up is over). */
  const tokenAsked = new Promise<void>((resolve) => {
    tokenSent = resolve;
  });
  let accessToken: string | null = null;
  let csrfToken: string | null = null;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let refreshing: Promise<boolean> | null = null;
  let startup: Promise<void> | null = null;
  /** Bumped by sign-out, so a token answer that arrives afterwards is not kept. */
  let epoch = 0;
  const listeners = new Set<() => void>();

  const set = (next: Partial<SessionState>) => {
    state = { ...state, ...next };
    for (const listener of listeners) listener();
  };

  const clearTokens = () => {
    clearTimeout(refreshTimer);
    accessToken = null;
    csrfToken = null;
  };

  /** Keeps the tokens and plans the next refresh shortly before the token expires. */
  const keepTokens = (token: { accessToken: string; csrfToken: string; accessTokenExpire: number }) => {
    accessToken = token.accessToken;
    csrfToken = token.csrfToken;
    const expireMs = token.accessTokenExpire * 1000;
    clearTimeout(refreshTimer);
    if (expireMs > 0) {
      const delay = Math.max(expireMs - Math.min(refreshLeadMs, expireMs * 0.2), 1000);
      // A failed timed refresh is not fatal: the next call's 401 tries again, then signs out.
      refreshTimer = setTimeout(() => void refresh(), delay);
    }
  };

  /** One refresh at a time: the refresh token rotates, so parallel refreshes would revoke each other. */
  const refresh = (): Promise<boolean> => {
    const asked = epoch;
    refreshing ??= requestToken()
      .then((token) => {
        if (asked !== epoch) return false;
        keepTokens(token);
        return true;
      })
      .catch(() => false)
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  };

  /** Called by the API client when a 401 survives a refresh: the session is over. */
  const signedOut = () => {
    if (!state.user) return;
    clearTokens();
    set({ status: "error", user: null, error: tokenFailedMessage });
    options.onSignedOut?.();
  };

  /** Another tab signed out, or signed in as someone else: this tab's session is over too. */
  const endedElsewhere = () => {
    if (!state.user) return;
    epoch++;
    clearTokens();
    set({ status: "success", user: null, error: null });
    options.onSignedOut?.();
  };
  let channel: BroadcastChannel | null = null;
  const tell = (message: SessionMessage) => channel?.postMessage(message);

  /**
   * Wires this store into the API client and the other tabs. Not done on creation: React may
   * create a store and throw it away (StrictMode), and a discarded store must not own the client.
   */
  const connect = () => {
    configureApi({
      session: { accessToken: () => accessToken, csrfToken: () => csrfToken, refresh, signedOut },
    });
    if (!channel && typeof BroadcastChannel === "function") {
      channel = new BroadcastChannel(channelName);
      channel.onmessage = (event: MessageEvent<SessionMessage>) => {
        const message = event.data;
        if (message.type === "signed-out" || message.userUuid !== state.user?.uuid) endedElsewhere();
      };
    }
  };

  const start = () => {
    connect();
    startup ??= begin().finally(tokenSent);
    return startup;
  };

  const begin = async () => {
    set({ status: "loading", error: null });
    try {
      const config = await loadConfig();
      configureApi({ apiBaseUrl: config.apiBaseUrl });
    } catch (error) {
      // Without /config.json the defaults (api at /api) still let the app try to start.
      console.warn("Could not read /config.json; using defaults", error);
    }
    const asked = epoch;
    let token: TokenResponse;
    try {
      token = await requestToken(tokenSent);
    } catch (error) {
      if (asked !== epoch) return;
      set({ status: "error", user: null, error: tokenFailedMessage });
      // A 401 is the plain first visit (no refresh cookie yet): no message, just the login page.
      if (!(error instanceof ApiError && error.status === 401)) {
        toast({ title: tokenFailedMessage, description: errorText(error), variant: "destructive" });
      }
      return;
    }
    if (asked !== epoch) return;
    keepTokens(token);
    try {
      const loading = api.get<SignedInUser>("me");
      options.alongsideUser?.(loading);
      const user = await loading;
      if (asked !== epoch) return;
      set({ status: "success", user, error: null });
    } catch (error) {
      if (asked !== epoch) return;
      clearTokens();
      set({ status: "error", user: null, error: userFailedMessage });
      toast({ title: userFailedMessage, description: errorText(error), variant: "destructive" });
    }
  };

  const signIn = async (email: string, password: string) => {
    set({ status: "loading", error: null });
    try {
      const auth = await api.raw<AuthResponse>("post", "auth", { username: email, password });
      keepTokens(auth);
      set({ status: "success", user: auth.user, error: null });
      tell({ type: "signed-in", userUuid: auth.user.uuid });
    } catch (error) {
      set({ status: "error", user: null, error: errorText(error) });
      throw error;
    }
  };

  const signOut = async () => {
    // Opening /logout directly: let the start-up finish first, or it would sign the user back in.
    await startup;
    epoch++;
    set({ status: "loading" });
    try {
      await api.raw("get", "logout");
    } catch (error) {
      // The local session ends anyway; the server drops the refresh token when it expires.
      console.warn("Logout call failed", error);
    }
    epoch++;
    clearTokens();
    set({ status: "success", user: null, error: null });
    tell({ type: "signed-out" });
    options.onSignedOut?.();
  };

  return {
    getState: () => state,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    connect,
    start,
    tokenAsked,
    signIn,
    signOut,
    refresh,
    /** For tests: the tokens the API client sends. */
    tokens: () => ({ accessToken, csrfToken }),
    dispose: () => {
      clearTimeout(refreshTimer);
      channel?.close();
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The app's session. Signing out drops every cached answer, so the next user never sees the previous
 * user's data. At start-up the user's sites and menu are asked for beside the user, not after it and
 * the frame's first drawing (issue 14).
 */
export const createAppSession = (queryClient: QueryClient) =>
  createSessionStore({
    onSignedOut: () => queryClient.clear(),
    alongsideUser: (user) => {
      // A failure is the menu's query's to handle, as for the sites below.
      void queryClient.prefetchQuery(myMenu);
      let early: Promise<MySites> | null = mySites(undefined).queryFn();
      // A failure is the site selector's query's to handle: it asks again as any query does.
      early.catch(() => {});
      user.then(
        (loaded) => {
          const sites = mySites(loaded.uuid);
          // The early answer serves the first try only; a retry asks the server again.
          const queryFn = () => {
            const answer = early ?? sites.queryFn();
            early = null;
            return answer;
          };
          void queryClient.prefetchQuery({ ...sites, queryFn });
        },
        // No user, no session: the menu is not kept for whoever signs in next.
        () => queryClient.removeQueries({ queryKey: myMenu.queryKey }),
      );
    },
  });

const SessionContext = createContext<SessionStore | null>(null);

/** Owns the session for the whole app; starts it once (StrictMode mounts effects twice). */
export function SessionProvider({ children, store }: { children: ReactNode; store?: SessionStore }) {
  const queryClient = useQueryClient();
  const [session] = useState(() => store ?? createAppSession(queryClient));
  useEffect(() => {
    void session.start();
  }, [session]);
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const store = useContext(SessionContext);
  if (!store) throw new Error("useSession needs a SessionProvider");
  const state = useSyncExternalStore(store.subscribe, store.getState);
  return { ...state, signIn: store.signIn, signOut: store.signOut };
}
