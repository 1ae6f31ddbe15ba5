// The topology suite's PostgreSQL restart (suite.ts): a few clients on both replicas while the cluster is stopped
// and started again; every answer must be 200 or 503 `database_unavailable` with Retry-After (no 500, no hang),
// and all answers 200 again within a bound after the cluster is back, indexing resumed.
import type { PrivatePostgres } from "@namereg/server/testing";
import type { ArchiveReader } from "./archive-reader.ts";
import { type Answer, client, type HttpClient } from "./http-client.ts";
import { NAMESPACES } from "./live-chain.ts";
import { sleep, untilValue } from "./waiting.ts";

/** A request not answered within this long counts as a hang. */
const HANG_MS = 6_000;

export interface RestartResult {
  requests: number;
  byStatus: Record<string, number>;
  /** Answers other than 200 or a well-formed 503 database_unavailable with Retry-After (incl. hangs). */
  bad: string[];
  slowestMs: number;
  /** From `pg_ctl stop -m fast` returning to `pg_ctl start` returning (the cluster accepting connections). */
  downSeconds: number;
  /** How long `pg_ctl stop -m fast` and `pg_ctl start -w` took. */
  stopSeconds: number;
  startSeconds: number;
  /** First and last 503 (by when the request started), in seconds from the stop command. */
  unavailableSeconds: [number, number] | null;
  /** /v1/status answers (all 200) that said the database was down. */
  statusSawDown: number;
  /** From the cluster accepting connections again to the start of the first request after which all were 200. */
  recoverySeconds: number | null;
  /** Per second from the stop: [second, 200s, 503s, other]. */
  timeline: [number, number, number, number][];
  /** From the cluster back up to the first event committed after it. */
  indexingResumedSeconds: number | null;
  boundSeconds: number;
  ok: boolean;
}

export async function restartCheck(o: {
  cluster: PrivatePostgres;
  archive: ArchiveReader;
  replicas: string[];
  rand: () => number;
  loadSeconds: number;
  downSeconds: number;
  clients: number;
  names: number;
  boundSeconds: number;
}): Promise<RestartResult> {
  interface Sample {
    start: number;
    end: number;
    status: number;
    ok: boolean;
    what: string;
  }
  const records: Sample[] = [];
  // Each request from the next of 200 loopback addresses, so the rate limit (per address) stays out of the way;
  // on a new connection each: on a busy machine an address comes round only every few seconds, and reusing its
  // kept-alive connection raced the server closing it for idleness (a "socket hang up" that was no answer).
  const addresses = Array.from({ length: 200 }, (_, i) => client(`127.0.1.${i + 1}`, { keepAlive: false }));
  let sent = 0;
  let stop = false;
  let statusSawDown = 0;
  const path = () => {
    const r = o.rand();
    const name = Math.floor(o.rand() * o.names);
    const ns = `bulk${name % NAMESPACES}`;
    // Spread over every name, so most resolves miss the cache and reach the database.
    if (r < 0.45) return `/v1/resolve/${ns}/n${name}`;
    if (r < 0.9) return `/v1/names/${ns}/n${name}`;
    return "/v1/status";
  };
  const load = Array.from({ length: o.clients }, async () => {
    while (!stop) {
      const i = sent++;
      const url = `${o.replicas[i % o.replicas.length]}${path()}`;
      const start = performance.now();
      const a = await (addresses[i % addresses.length] as HttpClient).get(url, HANG_MS);
      const end = performance.now();
      // /v1/status answers 200 throughout: a database outage is a component state there, not an error.
      const isStatus = url.endsWith("/v1/status");
      if (isStatus && a.status === 200 && databaseDown(a.body)) statusSawDown++;
      records.push({
        start,
        end,
        status: a.status,
        ok: isStatus ? a.status === 200 : wellFormed(a),
        what: `${a.status} ${url} ${a.error ?? a.body.slice(0, 120)}`,
      });
    }
  });
  await sleep(o.loadSeconds * 1000);
  const stopping = performance.now();
  await o.cluster.halt();
  const stopped = performance.now();
  await sleep(o.downSeconds * 1000);
  const starting = performance.now();
  await o.cluster.start();
  const up = performance.now();
  const archivedAtUp = await untilValue(() => o.archive.count());
  let resumed: number | null = null;
  const watch = (async () => {
    while (!stop) {
      if (resumed === null && (await o.archive.count().catch(() => 0)) > archivedAtUp)
        resumed = (performance.now() - up) / 1000;
      await sleep(50);
    }
  })();
  // Load goes on for at least `loadSeconds` after the cluster is back, and until indexing has resumed and every
  // answer of the last 3 s was 200 (or the recovery bound plus 3 s has passed: then it failed).
  const since = (t: number) => (performance.now() - t) / 1000;
  const lastBad = () => records.reduce((m, r) => (r.status === 200 ? m : Math.max(m, r.start)), up);
  while (
    since(up) < o.boundSeconds + 3 &&
    (since(up) < o.loadSeconds || resumed === null || since(lastBad()) < 3)
  )
    await sleep(100);
  stop = true;
  await Promise.all(load);
  await watch;
  for (const c of addresses) c.close();

  const byStatus: Record<string, number> = {};
  for (const r of records) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  const bad = records.filter((r) => !r.ok).map((r) => r.what);
  const lastNot200 = records
    .filter((r) => r.status !== 200)
    .reduce((m, r) => Math.max(m, r.start), -Infinity);
  const recoverySeconds = lastNot200 === -Infinity ? 0 : Math.max(0, (lastNot200 - up) / 1000);
  const unavailable = records.filter((r) => r.status === 503).map((r) => (r.start - stopping) / 1000);
  const unavailableSeconds: [number, number] | null =
    unavailable.length === 0 ? null : [Math.min(...unavailable), Math.max(...unavailable)];
  // Seconds from the stop; answers per second by when they started.
  const timeline: [number, number, number, number][] = [];
  for (const r of records) {
    const s = Math.floor((r.start - stopping) / 1000);
    if (s < -1) continue;
    let row = timeline.find((t) => t[0] === s);
    if (row === undefined) {
      row = [s, 0, 0, 0];
      timeline.push(row);
    }
    if (r.status === 200) row[1]++;
    else if (r.status === 503) row[2]++;
    else row[3]++;
  }
  timeline.sort((a, b) => a[0] - b[0]);
  const lastSecond = timeline.at(-1);
  return {
    requests: records.length,
    byStatus,
    bad,
    slowestMs: Math.round(records.reduce((m, r) => Math.max(m, r.end - r.start), 0)),
    downSeconds: (up - stopped) / 1000,
    stopSeconds: (stopped - stopping) / 1000,
    startSeconds: (up - starting) / 1000,
    unavailableSeconds,
    statusSawDown,
    recoverySeconds,
    timeline,
    indexingResumedSeconds: resumed,
    boundSeconds: o.boundSeconds,
    ok:
      bad.length === 0 &&
      recoverySeconds <= o.boundSeconds &&
      resumed !== null &&
      (byStatus["503"] ?? 0) > 0 &&
      statusSawDown > 0 &&
      lastSecond !== undefined &&
      lastSecond[1] > 0,
  };
}

function databaseDown(body: string): boolean {
  try {
    const status = JSON.parse(body) as { components?: { name: string; state: string }[] };
    return status.components?.find((c) => c.name === "Database")?.state === "down";
  } catch {
    return false;
  }
}

/** 200, or 503 `database_unavailable` with Retry-After; nothing else (not a 500, not a hang). */
function wellFormed(a: Answer): boolean {
  if (a.status === 200) return true;
  if (a.status !== 503) return false;
  if (!(Number(a.headers["retry-after"]) > 0)) return false;
  try {
    return (JSON.parse(a.body) as { error?: string }).error === "database_unavailable";
  } catch {
    return false;
  }
}
