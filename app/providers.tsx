"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { Session } from "next-auth";
import { SessionProvider } from "next-auth/react";
import { useState, type ReactNode } from "react";
import { ApiRequestError } from "@/lib/api/client";
import { signInPath } from "@/lib/client/callback";
import { isSigningOut } from "@/lib/client/sign-out";

/** An expired session makes every call fail with 401: send the user to sign in again. */
function onAuthError(error: Error) {
  if (error instanceof ApiRequestError && error.status === 401 && !isSigningOut()) {
    window.location.assign(signInPath(window.location.pathname + window.location.search));
  }
}

function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: onAuthError }),
    mutationCache: new MutationCache({ onError: onAuthError }),
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        // A 4xx will not change by asking again; network hiccups might.
        retry: (count, error) => !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500) && count < 2,
      },
    },
  });
}

export function Providers({ session, children }: { session: Session | null; children: ReactNode }) {
  const [client] = useState(makeQueryClient);
  return (
    <SessionProvider session={session}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </SessionProvider>
  );
}
