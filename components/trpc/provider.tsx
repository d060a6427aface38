"use client";
/**
 * Client-side tRPC: one QueryClient per browser tab and a tRPC client batching queries (≤ 10 a
 * request) to /api/trpc as plain JSON (no transformer, matching the HTTP API's wire format).
 * Components call `const trpc = useTRPC()` and use `trpc.x.y.queryOptions()/mutationOptions()`
 * with TanStack Query's hooks. Subscriptions (agent.chatStream) go over Server-Sent Events
 * (`httpSubscriptionLink`: an EventSource on GET /api/trpc/<path>?input=…, cookies included,
 * closed when the caller unsubscribes — which aborts the procedure on the server).
 */
import { sentence } from "@/components/ui/format";
import { useState } from "react";
import { QueryClient, QueryClientProvider, isServer } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { AppRouter } from "@/server/api/root";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // server components render the data; client queries avoid an immediate refetch
      queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
    },
  });
}

let browserQueryClient: QueryClient | undefined;
function getQueryClient() {
  if (isServer) return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}

export function TRPCReactProvider({ children }: { children: React.ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      // Queries rendered together are batched, at most 10 per request (the server's MAX_BATCH_SIZE,
      // server/http/trpc.ts); mutations go one per request (docs/api.md "Limits").
      links: [
        splitLink({
          condition: (op) => op.type === "subscription",
          true: httpSubscriptionLink({ url: "/api/trpc" }),
          false: splitLink({
            condition: (op) => op.type === "query",
            true: httpBatchLink({ url: "/api/trpc", maxItems: 10 }),
            false: httpLink({ url: "/api/trpc" }),
          }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}

/**
 * The message of a tRPC (or any) error, for display: as a sentence, its first letter capital
 * (the API's messages are lower-case clauses, "the merge has conflicts in 7 files").
 */
export function errorMessage(error: unknown): string {
  if (error && typeof error === "object" && "message" in error && typeof (error as { message: unknown }).message === "string") {
    return sentence((error as { message: string }).message);
  }
  return "Something went wrong";
}
