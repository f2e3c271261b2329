import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "../api/client";

/**
 * One QueryClient for the app. A 4xx answer will not change by asking again, so it is not retried;
 * network and 5xx failures are retried twice. Window focus does not refetch: a form's data must not
 * change under the user's hands.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
