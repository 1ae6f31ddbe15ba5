// The page's cache of reads: @tanstack/query-core's QueryClient, keyed by the strings the pages already give
// `useLoad` ("h:alice.acme", "ns:acme", "listings"). A change heard on the stream (stream.ts) or the person's own
// transaction invalidates the reads it concerns (topics.ts) and only those are asked again, while the answer on
// screen stays until the new one is there (no "Loading…" flash on a refresh).
import { type Query, QueryClient, QueryObserver, type QueryObserverResult } from "@tanstack/query-core";
import { useEffect, useRef, useState } from "preact/hooks";

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (404, 409) is an answer the page states; asking again would only repeat it.
      retry: false,
      // Freshness comes from the change stream, not from focus or a timer.
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
      // Offline, a read fails and says so rather than waiting unseen (the stream's indicator says the rest).
      networkMode: "always",
      staleTime: 0,
    },
  },
});

/** A read by `key` through the cache: the current answer, kept while a refresh is under way. */
export function useQueryResult<T>(
  key: string,
  load: () => Promise<T>,
  enabled: boolean,
): QueryObserverResult<T, unknown> {
  // A read asked again later (a change heard) runs the newest `load`, not the one of the render that set the key.
  const latest = useRef(load);
  latest.current = load;
  const options = { queryKey: [key], queryFn: () => latest.current(), enabled };
  const [observer] = useState(() => new QueryObserver<T, unknown, T, T, string[]>(queryClient, options));
  const [, setTick] = useState(0);
  useEffect(() => observer.subscribe(() => setTick((n) => n + 1)), [observer]);
  useEffect(() => observer.setOptions(options), [key, enabled]);
  return observer.getOptimisticResult(queryClient.defaultQueryOptions(options));
}

/** Reads again, now, every shown read `matches` picks (the person's own change went through: see it at once). */
export function refresh(matches: (key: string) => boolean = () => true): void {
  const picked = (query: Query) => matches(String(query.queryKey[0]));
  // A shown read still on its first answer would be joined, not asked again (query-core cancels only a read that
  // already has an answer), and that answer may have been read before the change: it is dropped for a new read.
  const cache = queryClient.getQueryCache();
  for (const query of cache.findAll({ type: "active", fetchStatus: "fetching", predicate: picked }))
    if (query.state.data === undefined) void query.cancel({ silent: true });
  void queryClient.invalidateQueries({ predicate: picked, refetchType: "active" });
}
