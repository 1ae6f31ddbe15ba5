// The topology suite's read-replica check: how long after a change reaches the chain each route gives the new
// answer, on `serve` replicas whose mirror reads go to a hot standby (DATABASE_READ_URL) that applies the primary's
// transactions late (`recovery_min_apply_delay`), while the indexer writes the primary. One change at a time,
// alternating a transfer of a bulk name to a new holder and the issue of a new name:
//   - every route is asked over and over on every standby replica from before the change (so the resolve cache
//     holds the old answer, or the "not found", when the change comes) until the standby has it and every route has
//     answered at least three more times;
//   - the primary and the standby are probed directly (SQL) for the name's row, so the suite knows when each had it.
// Freshness is from the ledger that carries the change being closed on the chain (its "transaction success") to
// the end of the first request that got the new answer. Two things must never happen: an old answer to a request
// sent after the standby had the change (a cache kept a stale read: resolve, whose cache is filled from the
// primary, included), and an old answer after a new one on the same replica and route.
import type { NamingDevnet } from "@namereg/devnet";
import pg from "pg";
import {
  judge,
  pathOf,
  pickChange,
  ROUTES,
  type RouteName,
  transferOrIssue,
  type Verdict,
} from "./freshness-change.ts";
import { client, type HttpClient } from "./http-client.ts";

export interface FreshnessOptions {
  devnet: NamingDevnet;
  /** PostgreSQL URLs of the primary and the standby, probed directly. */
  primaryUrl: string;
  standbyUrl: string;
  /** Base URLs of the `serve` replicas reading the standby. */
  replicas: string[];
  changes: number;
  /** Bulk names `n0` … `n<names - 1>` (spread over the bulk namespaces, held by `bulkHolder(i % holders)`). */
  names: number;
  holders: number;
  rand: () => number;
  /** Longest one change may take, from the chain to the standby and every route: a failure past it. */
  boundSeconds: number;
  /** Pause between one route's requests on one replica. */
  gapMs?: number;
  log?: (line: string) => void;
}

export interface Percentiles {
  n: number;
  p50: number | null;
  p95: number | null;
  max: number | null;
}

export interface ReplicaStatusSample {
  state: string;
  lagSeconds: number | null;
  lagBytes: number | null;
}

export interface FreshnessResult {
  changes: number;
  /** Seconds from the chain to the new answer, per route, over every replica and change. */
  routes: Record<RouteName, Percentiles>;
  /** Seconds from the chain to the row being on the primary (the indexer's commit) and on the standby. */
  primary: Percentiles;
  standby: Percentiles;
  requests: number;
  /** Old answers to requests sent after the standby had the change. */
  staleAfterStandby: string[];
  /** Old answers after a new one on the same replica and route. */
  flips: string[];
  /** Answers that were neither the old nor the new one (an error status, a timeout, a 429…). */
  bad: string[];
  /** Changes not seen everywhere within the bound. */
  unfinished: string[];
  /** The `Read replica` component of /v1/status on each standby replica after each change. */
  status: ReplicaStatusSample[];
  ok: boolean;
}

interface Sample {
  start: number;
  end: number;
  verdict: Verdict;
  what: string;
}

/** 127.0.3.x, one request after another: the per-IP limit counts each address apart and none nears it. */
const ADDRESSES = 250;
/** Answers each route must give on each replica after the standby has the change. */
const AFTER_STANDBY = 3;

export async function freshnessCheck(o: FreshnessOptions): Promise<FreshnessResult> {
  const log = o.log ?? (() => undefined);
  const gapMs = o.gapMs ?? 20;
  // Each address is used about once a second at most: a connection of its own per request.
  const clients = Array.from({ length: ADDRESSES }, (_, i) =>
    client(`127.0.3.${i + 1}`, { keepAlive: false }),
  );
  let nextClient = 0;
  const http = (): HttpClient => clients[nextClient++ % clients.length] as HttpClient;
  const primary = new pg.Client({ connectionString: o.primaryUrl });
  const standby = new pg.Client({ connectionString: o.standbyUrl });
  await primary.connect();
  await standby.connect();
  const samples: Record<RouteName, number[]> = { resolve: [], name: [], "by-holder": [], history: [] };
  const primarySeconds: number[] = [];
  const standbySeconds: number[] = [];
  const staleAfterStandby: string[] = [];
  const flips: string[] = [];
  const bad: string[] = [];
  const unfinished: string[] = [];
  const status: ReplicaStatusSample[] = [];
  let requests = 0;
  const namespaces = o.devnet.bulk?.namespaces ?? [];
  const used = new Set<number>();
  try {
    for (let k = 0; k < o.changes; k++) {
      const change = pickChange(k, namespaces, used, o);
      const ns = namespaces.find((n) => n.label === change.namespace);
      if (ns === undefined) throw new Error(`no namespace ${change.namespace}`);
      let stop = false;
      const loops: { replica: number; route: RouteName; records: Sample[]; done: Promise<void> }[] = [];
      for (const [replica, base] of o.replicas.entries())
        for (const route of ROUTES) {
          const records: Sample[] = [];
          const url = `${base}${pathOf(route, change)}`;
          const done = (async () => {
            while (!stop) {
              const start = performance.now();
              const answer = await http().get(url, 6000);
              records.push({ start, end: performance.now(), ...judge(route, change, answer) });
              await sleep(gapMs);
            }
          })();
          loops.push({ replica, route, records, done });
        }
      const probe = (db: pg.Client) => {
        let seenAt: number | null = null;
        const done = (async () => {
          while (!stop && seenAt === null) {
            const { rows } = await db.query<{ holder: string }>("select holder from names where node = $1", [
              change.node,
            ]);
            if (rows[0]?.holder === change.newHolder) seenAt = performance.now();
            else await sleep(5);
          }
        })();
        return { seenAt: () => seenAt, done };
      };
      // Every route answered twice before the change: the old answer is what a cache would hold.
      await waitFor(() => loops.every((l) => l.records.length >= 2), 60_000);
      o.devnet.chain.appendSyntheticLedger([transferOrIssue(change, ns.registrar)]);
      const t0 = performance.now();
      const onPrimary = probe(primary);
      const onStandby = probe(standby);
      const finished = await waitFor(() => {
        const s = onStandby.seenAt();
        return s !== null && loops.every((l) => l.records.filter((r) => r.start > s).length >= AFTER_STANDBY);
      }, o.boundSeconds * 1000);
      stop = true;
      await Promise.all([...loops.map((l) => l.done), onPrimary.done, onStandby.done]);

      const tag = `${change.kind} ${change.label}.${change.namespace}`;
      const seenOnStandby = onStandby.seenAt();
      const seenOnPrimary = onPrimary.seenAt();
      if (!finished)
        unfinished.push(
          `${tag}: standby ${seenOnStandby === null ? "never had it" : "had it"}, routes new: ${loops
            .map((l) => `${l.route}@${l.replica + 1} ${l.records.some((r) => r.verdict === "new")}`)
            .join(", ")}`,
        );
      if (seenOnPrimary !== null) primarySeconds.push((seenOnPrimary - t0) / 1000);
      if (seenOnStandby !== null) standbySeconds.push((seenOnStandby - t0) / 1000);
      for (const l of loops) {
        const where = `${tag}, ${l.route} on replica ${l.replica + 1}`;
        requests += l.records.length;
        const before = l.records.filter((r) => r.start < t0);
        for (const r of before) if (r.verdict !== "old") bad.push(`${where}, before the change: ${r.what}`);
        const after = l.records.filter((r) => r.start >= t0);
        for (const r of after) if (r.verdict === "bad") bad.push(`${where}: ${r.what}`);
        const first = after.find((r) => r.verdict === "new");
        if (first !== undefined) samples[l.route].push((first.end - t0) / 1000);
        const flipped =
          first === undefined ? [] : after.filter((r) => r.verdict === "old" && r.start > first.end);
        for (const r of flipped)
          flips.push(`${where}: old answer ${((r.start - t0) / 1000).toFixed(3)} s after the change`);
        if (seenOnStandby !== null)
          for (const r of after)
            if (r.verdict === "old" && r.start > seenOnStandby)
              staleAfterStandby.push(
                `${where}: old answer to a request sent ${((r.start - seenOnStandby) / 1000).toFixed(3)} s after the standby had it`,
              );
      }
      for (const base of o.replicas) status.push(await readReplicaStatus(http(), base));
      log(
        `  change ${k + 1}/${o.changes} (${tag}): primary ${fmt(seenOnPrimary, t0)}, standby ${fmt(seenOnStandby, t0)}; ${ROUTES.map(
          (route) =>
            `${route} ${loops
              .filter((l) => l.route === route)
              .map((l) => fmt(l.records.find((r) => r.start >= t0 && r.verdict === "new")?.end ?? null, t0))
              .join("/")}`,
        ).join(", ")}`,
      );
    }
  } finally {
    for (const c of clients) c.close();
    await primary.end().catch(() => undefined);
    await standby.end().catch(() => undefined);
  }
  const routes = Object.fromEntries(ROUTES.map((r) => [r, percentiles(samples[r])])) as Record<
    RouteName,
    Percentiles
  >;
  return {
    changes: o.changes,
    routes,
    primary: percentiles(primarySeconds),
    standby: percentiles(standbySeconds),
    requests,
    staleAfterStandby,
    flips,
    bad,
    unfinished,
    status,
    ok:
      staleAfterStandby.length === 0 &&
      flips.length === 0 &&
      bad.length === 0 &&
      unfinished.length === 0 &&
      ROUTES.every((r) => routes[r].n === o.changes * o.replicas.length),
  };
}

async function readReplicaStatus(http: HttpClient, base: string): Promise<ReplicaStatusSample> {
  const a = await http.get(`${base}/v1/status`, 6000);
  try {
    const components = (JSON.parse(a.body) as { components: (ReplicaStatusSample & { name: string })[] })
      .components;
    const c = components.find((x) => x.name === "Read replica");
    if (c === undefined) return { state: "absent", lagSeconds: null, lagBytes: null };
    return { state: c.state, lagSeconds: c.lagSeconds, lagBytes: c.lagBytes };
  } catch {
    return { state: `status ${a.status}`, lagSeconds: null, lagBytes: null };
  }
}

/** Nearest-rank percentiles. */
export function percentiles(xs: readonly number[]): Percentiles {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? null;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? null };
}

/** True once `done()` holds, false if `ms` passed first. */
async function waitFor(done: () => boolean, ms: number): Promise<boolean> {
  const end = performance.now() + ms;
  while (!done()) {
    if (performance.now() > end) return false;
    await sleep(10);
  }
  return true;
}

const fmt = (at: number | null, t0: number) => (at === null ? "never" : `${((at - t0) / 1000).toFixed(2)} s`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
