import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { RouterProvider } from "react-router";
import { createAppRouter } from "./router";
import { SessionProvider, type SessionStore } from "./session";
import { Toaster } from "./toaster";

/** The whole web app around the query cache and the session that main.tsx started. */
export function App({ queryClient, session }: { queryClient: QueryClient; session: SessionStore }) {
  const [router] = useState(createAppRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider store={session}>
        <RouterProvider router={router} />
        <Toaster />
      </SessionProvider>
    </QueryClientProvider>
  );
}
