// The page's cache of reads: @tanstack/query-core's QueryClient, keyed by the strings the pages already give
// `useLoad` ("h:alice.acme", "ns:acme", "listings"). A change heard on the stream (stream.ts) or the person's own
// transaction invalidates the reads it concerns (topics.ts) and only those are asked again, while the answer on
// screen stays until the new one is there (no "Loading…" flash on a refresh).
import {
  type Query,
  QueryClient,
  QueryObserver,
  type QueryObserverOptions,
  type QueryObserverResult,
} from "@tanstack/query-core";
import { useEffect, useRef, useState } from "preact/hooks";
import { isAnswer } from "../loaded.ts";

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (404, 409) is an answer the page states; asking again would only repeat it.
      retry: false,
      // Freshness comes from the change stream, not from focus or a timer (a `Polling` read adds both).
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
      // Offline, a read fails and says so rather than waiting unseen (the stream's indicator says the rest).
      networkMode: "always",
      staleTime: 0,
    },
  },
});

// What a framework adapter's provider does: query-core hears the tab being shown again (and the network coming back)
// only once its client is mounted. Only `Polling` reads ask again on either; the defaults above say no.
queryClient.mount();

/**
 * A read whose answer changes without the chain changing (the service's own status: an RPC going down, the indexer
 * catching up), which no change on the stream announces: asked again every `everyMs` while the tab is visible (and
 * at once when it is shown again), and a change heard asks it again at most once per `gapMs` (`refresh`).
 */
export interface Polling {
  readonly everyMs: number;
  readonly gapMs: number;
}

type Options<T> = QueryObserverOptions<T, unknown, T, T, string[]>;

/**
 * A read that failed without an answer about what it reads (no connection, a 5xx, 429: loaded.ts `isAnswer`) is
 * asked again this often while the tab is visible, until one comes: the page keeps its last answer under a note
 * saying it tries again by itself (ui.tsx StaleNote), and does so, rather than asking the person to — a change on
 * the stream may not come for a long while. A refusal (404, 409) is an answer, and is not asked again.
 */
export const RETRY_FAILED_MS = 5_000;

/** The timer of a read the stream keeps fresh: none, but while its last read failed without an answer. */
export function retryFailed(query: {
  readonly state: { readonly status: string; readonly error: unknown };
}): number | false {
  return query.state.status === "error" && !isAnswer(query.state.error) ? RETRY_FAILED_MS : false;
}

/** The query-core options of a read by `key`; a polled read adds its timer and its gap (kept in `meta`). */
export function readOptions<T>(
  key: string,
  load: () => Promise<T>,
  enabled: boolean,
  polling?: Polling,
): Options<T> {
  const options: Options<T> = { queryKey: [key], queryFn: load, enabled };
  if (polling === undefined)
    return { ...options, refetchInterval: retryFailed, refetchIntervalInBackground: false };
  return {
    ...options,
    refetchInterval: polling.everyMs,
    // A hidden tab is looked at by no one: query-core asks only while `document.visibilityState` is not hidden,
    // and asks at once when the tab is shown again (its "focus" is that visibility).
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    meta: { gapMs: polling.gapMs },
  };
}

/** A read by `key` through the cache: the current answer, kept while a refresh is under way. */
export function useQueryResult<T>(
  key: string,
  load: () => Promise<T>,
  enabled: boolean,
  polling?: Polling,
): QueryObserverResult<T, unknown> {
  // A read asked again later (a change heard) runs the newest `load`, not the one of the render that set the key.
  const latest = useRef(load);
  latest.current = load;
  const options = readOptions(key, () => latest.current(), enabled, polling);
  const [observer] = useState(() => new QueryObserver<T, unknown, T, T, string[]>(queryClient, options));
  const [, setTick] = useState(0);
  useEffect(() => observer.subscribe(() => setTick((n) => n + 1)), [observer]);
  useEffect(() => observer.setOptions(options), [key, enabled, polling?.everyMs, polling?.gapMs]);
  return observer.getOptimisticResult(queryClient.defaultQueryOptions(options));
}

/**
 * How long a polled read waits before it is asked again for a change heard at `now`: until `gapMs` after its last
 * answer, so a burst of changes (the indexer catching up) costs one read per gap, not one per change; a whole gap
 * while a read is under way, since that read may have left before the change.
 */
export function coalescedWait(now: number, lastAnswerAt: number, fetching: boolean, gapMs: number): number {
  if (fetching) return gapMs;
  return Math.max(0, lastAnswerAt + gapMs - now);
}

/** The re-read of a polled read already planned for a change (one per read: later changes join it). */
const planned = new WeakMap<Query, ReturnType<typeof setTimeout>>();

function gapOf(query: Query): number | undefined {
  const gap = query.meta?.gapMs;
  return typeof gap === "number" ? gap : undefined;
}

function askWithin(query: Query, gapMs: number): void {
  if (planned.has(query)) return;
  const { dataUpdatedAt, errorUpdatedAt, fetchStatus } = query.state;
  const wait = coalescedWait(
    Date.now(),
    Math.max(dataUpdatedAt, errorUpdatedAt),
    fetchStatus === "fetching",
    gapMs,
  );
  const timer = setTimeout(() => {
    planned.delete(query);
    // A read under way by now is joined, not cancelled: under a steady stream of changes a slow answer would
    // otherwise be thrown away again and again (one that left before the change is followed by the next poll).
    void queryClient.refetchQueries({ queryKey: query.queryKey, type: "active" }, { cancelRefetch: false });
  }, wait);
  planned.set(query, timer);
}

/** Reads again, now, every shown read `matches` picks (the person's own change went through: see it at once). */
export function refresh(matches: (key: string) => boolean = () => true): void {
  const picked = (query: Query) => matches(String(query.queryKey[0]));
  const cache = queryClient.getQueryCache();
  // Polled reads are asked again within their gap instead (`coalescedWait`).
  for (const query of cache.findAll({ type: "active", predicate: picked })) {
    const gapMs = gapOf(query);
    if (gapMs !== undefined) askWithin(query, gapMs);
  }
  const now = (query: Query) => picked(query) && gapOf(query) === undefined;
  // A shown read still on its first answer would be joined, not asked again (query-core cancels only a read that
  // already has an answer), and that answer may have been read before the change: it is dropped for a new read.
  for (const query of cache.findAll({ type: "active", fetchStatus: "fetching", predicate: now }))
    if (query.state.data === undefined) void query.cancel({ silent: true });
  void queryClient.invalidateQueries({ predicate: now, refetchType: "active" });
}
