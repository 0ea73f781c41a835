//! The QueryClient with the spec's read behaviour: never stale, no retry, no refetch on focus, 5 min cache.
import { QueryClient } from "@tanstack/react-query";

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        retry: false,
        refetchOnWindowFocus: false,
        gcTime: 5 * 60_000,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
