// One change stream per tab: an EventSource on /v1/stream (docs/api.md "GET /v1/stream"), filtered to what the page
// shows, whose changes invalidate the cached reads they concern (topics.ts, query.ts). The browser's EventSource
// reconnects by itself after a dropped connection and sends the last id it saw as Last-Event-ID, so the service
// replays what was missed; when the browser gives up (an answer that is no stream) or the network is gone, this
// module opens it again itself, resuming from the last position with `lastEventId`. `reset` (the position can no
// longer be resumed) reads everything shown again.
import { refresh } from "./query.ts";
import { type Change, concerns, type Scope } from "./topics.ts";

/** `off`: the page shows nothing that changes; `connecting`: the first connection; then `live` / `reconnecting`. */
export type LiveStatus = "off" | "connecting" | "live" | "reconnecting";

/** Changes that arrive together are applied together: one read again per key, not one per change. */
const BATCH_MS = 100;
/** After the browser gave up, the next attempt waits this long, doubling up to MAX_RETRY_MS. */
const RETRY_MS = 2000;
const MAX_RETRY_MS = 30_000;

let scope: Scope | null = null;
let scopeKey = "";
let source: EventSource | null = null;
let lastId: string | null = null;
let status: LiveStatus = "off";
let retryMs = RETRY_MS;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let pending: Change[] = [];
let batchTimer: ReturnType<typeof setTimeout> | null = null;
const listeners = new Set<(status: LiveStatus) => void>();

function setStatus(next: LiveStatus): void {
  if (next === status) return;
  status = next;
  for (const listener of listeners) listener(status);
}

export const liveStatus = (): LiveStatus => status;

export function onLiveStatus(listener: (status: LiveStatus) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function apply(): void {
  batchTimer = null;
  const changes = pending;
  pending = [];
  refresh((key) => changes.some((change) => concerns(change, key)));
}

function close(): void {
  source?.close();
  source = null;
  if (retryTimer !== null) clearTimeout(retryTimer);
  retryTimer = null;
}

function open(): void {
  close();
  if (scope === null) {
    setStatus("off");
    return;
  }
  if (!navigator.onLine) {
    setStatus("reconnecting");
    return;
  }
  const params = new URLSearchParams();
  if (scope.namespace !== undefined) params.set("namespace", scope.namespace);
  if (scope.types !== undefined) params.set("types", scope.types.join(","));
  if (lastId !== null) params.set("lastEventId", lastId);
  const es = new EventSource(`/v1/stream${params.size === 0 ? "" : `?${params}`}`);
  source = es;
  const seen = (event: MessageEvent) => {
    if (event.lastEventId !== "") lastId = event.lastEventId;
  };
  es.addEventListener("ready", (event) => {
    seen(event);
    retryMs = RETRY_MS;
    setStatus("live");
  });
  es.addEventListener("reset", (event) => {
    // Changes were missed for good: everything shown is read again.
    seen(event);
    refresh();
    setStatus("live");
  });
  es.onmessage = (event) => {
    seen(event);
    try {
      pending.push(JSON.parse(String(event.data)) as Change);
    } catch {
      return;
    }
    if (batchTimer === null) batchTimer = setTimeout(apply, BATCH_MS);
  };
  es.onerror = () => {
    if (source !== es) return;
    // A first connection the browser gave up on (an answer that is no stream: a proxy's 503, a stream turned off)
    // is not "Connecting…" for ever: the module retries it as it would a dropped one, and says so.
    const gaveUp = es.readyState === EventSource.CLOSED;
    setStatus(status === "connecting" && !gaveUp ? "connecting" : "reconnecting");
    // CONNECTING: the browser tries again by itself (after the service's `retry`). CLOSED: it gave up.
    if (es.readyState === EventSource.CLOSED) {
      retryTimer = setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    }
  };
}

/** Listens to the changes `next` names (null: none); a new subject starts from now, the same one keeps its stream. */
export function listen(next: Scope | null): void {
  const key = next === null ? "" : JSON.stringify(next);
  if (key === scopeKey && (source !== null || retryTimer !== null || next === null)) return;
  scope = next;
  scopeKey = key;
  lastId = null;
  if (next !== null && status !== "live") setStatus("connecting");
  open();
}

// The network going and coming back (and a laptop waking, which fires `online` or shows the page again): the stream
// is said not to be live at once, and resumed from where it was.
addEventListener("offline", () => {
  if (scope === null) return;
  close();
  setStatus("reconnecting");
});
addEventListener("online", () => {
  if (scope !== null) open();
});
// A connection that slept with the laptop may look open and carry nothing (its heartbeats are comments, which an
// EventSource does not show): after a long absence the stream is reopened from its last position anyway.
const ASLEEP_MS = 30_000;
let hiddenAt = Date.now();
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") {
    hiddenAt = Date.now();
    return;
  }
  if (scope === null) return;
  if (source?.readyState !== EventSource.OPEN || Date.now() - hiddenAt > ASLEEP_MS) open();
  readAgainIfNotLive();
});
// While the stream is not live, nothing tells the page what changed: when the person comes back to it (the tab shown
// again, above; the window focused) everything shown is read again, so a page without its stream is at most as old
// as the person's last look away (README "Live pages").
function readAgainIfNotLive(): void {
  if (scope !== null && status !== "live" && status !== "off") refresh();
}
addEventListener("focus", readAgainIfNotLive);
// A page restored from the back-forward cache had its stream closed: reopened from where it was.
addEventListener("pageshow", (event) => {
  if (event.persisted && scope !== null) open();
});
