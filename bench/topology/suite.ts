// The topology suite (issue 17): the deployment's shape on one machine. Two `namereg serve` replicas and two
// `namereg index` processes (a writer and a standby) on a private PostgreSQL cluster and the shared Redis, fed by
// an in-process devnet that keeps closing ledgers with new events. Three checks, in order:
//   1. the global rate limit: one client address, requests alternating across both replicas well past the
//      limit within one window; the number admitted must be within ±2% of the limit, the replicas' RateLimit
//      headers must agree, and Redis must hold the one count of every request;
//   2. writer hand-over: the process holding the writer lock is SIGKILLed while events keep coming; the time
//      until the standby commits new events must stay under a bound; then the new writer is frozen (SIGSTOP)
//      instead: the standby must take over within WRITER_STALL_TIMEOUT_MS plus a bound, and the frozen writer,
//      continued (SIGCONT), must stand by without committing anything;
//   3. a PostgreSQL restart under load: a few clients on both replicas while the cluster is stopped and started
//      again; every answer must be 200 or 503 `database_unavailable` with Retry-After (no 500, no hang), and all
//      answers 200 again within a bound after the cluster is back.
// With `standby`, the cluster has a hot standby (`pg_basebackup -R`, applying transactions `applyDelayMs` late) and
// two more `serve` replicas read it (DATABASE_READ_URL); right after the rate limit, while one writer indexes,
// freshness.ts measures how soon each route gives a changed name's new answer on them and that no cache keeps an
// old one once the standby has the change, and /v1/status reports the standby's replay lag (`Read replica`).
// At the end the archive is compared with the chain (an uninterrupted in-process run of the same chain on a
// fresh database): 0 events lost, 0 extra, 0 duplicated history rows, no recorded gap in /v1/coverage; with a
// standby, its replicas then report it 0 s behind once the indexers are stopped, and `down` once it is stopped.
// `bench/topology/run.ts` runs it at full size; suite.integration.test.ts runs a short seeded variant.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { bulkHolder, type NamingDevnet, type SyntheticEvent, startNamingDevnet } from "@namereg/devnet";
import { encodeEvent, nameNode } from "@namereg/protocol";
import { contractEnv } from "@namereg/server";
import {
  createTestDatabase,
  freePort,
  indexerFor,
  type PrivatePostgres,
  prng,
  runUntilIdle,
  signalGroup,
  spawnInGroup,
  startPrivatePostgres,
  startPrivateStandby,
} from "@namereg/server/testing";
import { Redis } from "ioredis";
import pg from "pg";
import { type FreshnessResult, freshnessCheck, type ReplicaStatusSample } from "./freshness.ts";
import { type Answer, client, type HttpClient } from "./http-client.ts";

export interface TopologySuiteOptions {
  seed: number;
  /** Bulk events on the chain before the processes start. */
  events: number;
  /** RATE_LIMIT_PER_MINUTE of both replicas. */
  rateLimit: number;
  /** Seconds of load before the cluster is stopped, and again after it is back. */
  loadSeconds: number;
  /** How long the cluster stays stopped. */
  downSeconds?: number;
  /** Concurrent load clients in the restart check. */
  clients?: number;
  /**
   * Bounds: writer hand-over, and all-200 again after the cluster is back. The hand-over bound may be given as a
   * function of this machine's measured cold start of a writer (`namereg index` launched until it holds the lock).
   */
  handoverBoundSeconds?: number | ((coldStartSeconds: number) => number);
  /** WRITER_STALL_TIMEOUT_MS of the indexers: how long a frozen writer keeps its place. Default 5000. */
  stallTimeoutMs?: number;
  recoveryBoundSeconds?: number;
  redisUrl?: string;
  /** A hot standby and two `serve` replicas reading it; absent: none. */
  standby?: StandbyOptions;
  log?: (line: string) => void;
}

export interface StandbyOptions {
  /** `recovery_min_apply_delay` of the standby. */
  applyDelayMs: number;
  /** Changes whose freshness is measured, one at a time. */
  changes: number;
  /** Longest one change may take to reach the standby and every route (default 30 s plus the delay). */
  boundSeconds?: number;
}

export interface StandbyResult {
  applyDelayMs: number;
  freshness: FreshnessResult;
  /** The standby replicas' `Read replica` component once the chain is idle and the standby caught up. */
  caughtUp: ReplicaStatusSample[];
  /** The same after the standby was stopped. */
  stopped: ReplicaStatusSample[];
  /** The replicas reading the primary show no `Read replica` component. */
  absentWithoutReplica: boolean;
}

export interface RateLimitResult {
  limit: number;
  sent: number;
  admitted: number;
  limited: number;
  other: number;
  /** Requests counted in Redis under the client's key: every request, through either replica. */
  redisCount: number;
  windowSeconds: number;
  /** Per replica: admitted requests, and the RateLimit-Limit values it sent. */
  perReplica: { admitted: number; limited: number; limitHeaders: string[] }[];
  /** Header disagreements across replicas (Remaining not one count, Reset apart, Limit differing, …). */
  headerProblems: string[];
  ok: boolean;
}

export interface HandoverResult {
  killedPid: number;
  archivedAtKill: number;
  /** SIGKILL → the standby logs that it holds the writer lock. */
  lockTakenSeconds: number | null;
  /** SIGKILL → the first event committed after the kill. */
  writingSeconds: number | null;
  /** SIGKILL → /v1/status on both replicas shows the processed ledger past its value at the kill. */
  statusAdvancedSeconds: number | null;
  boundSeconds: number;
  ok: boolean;
}

export interface FreezeResult {
  frozenPid: number;
  stallTimeoutMs: number;
  /** SIGSTOP → the standby logs that it holds the writer lock. */
  lockTakenSeconds: number | null;
  /** SIGSTOP → the first event committed by the standby (after it took the lock). */
  writingSeconds: number | null;
  /** SIGCONT → the continued writer logs that it lost the lock (or stands by). */
  noticedSeconds: number | null;
  /**
   * The frozen writer's epoch, and the writer fence's when it was continued: every commit of the frozen writer
   * proves its epoch inside the transaction, so a newer fence means it can commit nothing after SIGCONT.
   */
  frozenEpoch: number | null;
  fenceEpochAtContinue: number;
  /** Writer lock acquisitions the continued writer logged after SIGCONT: must be 0 (the other one writes). */
  activeAfterContinue: number;
  boundSeconds: number;
  ok: boolean;
}

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
export interface TopologySuiteResult {
  seed: number;
  chainEvents: number;
  liveEvents: number;
  archived: number;
  lost: number;
  extra: number;
  duplicated: number;
  coverage: { complete: boolean; gaps: number }[];
  rateLimit: RateLimitResult;
  handover: HandoverResult;
  freeze: FreezeResult;
  restart: RestartResult;
  standby: StandbyResult | null;
  /** Exit codes of the processes stopped with SIGTERM at the end (the SIGKILLed writer is not among them). */
  exitCodes: (number | null)[];
  failures: string[];
  ok: boolean;
}

const CLI = new URL(import.meta.resolve("@namereg/server/cli")).pathname;
const NAMESPACES = 4;
/** Bulk holders: name `n<i>` is held by `bulkHolder(i % HOLDERS)`. */
const HOLDERS = 200;
/** A request not answered within this long counts as a hang. */
const HANG_MS = 6_000;

export async function runTopologySuite(o: TopologySuiteOptions): Promise<TopologySuiteResult> {
  const log = o.log ?? (() => undefined);
  const rand = prng(o.seed);
  const redisUrl = o.redisUrl ?? process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  const stallTimeoutMs = o.stallTimeoutMs ?? 5000;
  const recoveryBound = o.recoveryBoundSeconds ?? 5;
  const failures: string[] = [];
  const cleanup: (() => Promise<unknown>)[] = [];
  const children: Child[] = [];
  // The Redis keys of this run only: SERVICE_NAME prefixes the rate-limit keys (`<name>:ratelimit:<ip>`).
  const serviceName = `topology-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    const devnet = await startNamingDevnet({
      scenario: "bulk",
      closeIntervalMs: 0,
      bulk: { namespaces: NAMESPACES, events: o.events, eventsPerLedger: 500, holders: HOLDERS },
    });
    cleanup.push(async () => devnet.stop());
    const bulkEvents = devnet.bulk?.events ?? o.events;
    const cluster = await startPrivatePostgres();
    cleanup.push(() => cluster.stop());
    // Made before anything is written: the standby replays the migrations and the whole history from the WAL.
    const made = performance.now();
    const standby = o.standby === undefined ? null : await startPrivateStandby(cluster, o.standby);
    if (standby !== null) {
      cleanup.push(() => standby.stop());
      log(
        `standby made (pg_basebackup -R) and started in ${((performance.now() - made) / 1000).toFixed(1)} s`,
      );
    }
    cleanup.push(async () => {
      const redis = new Redis(redisUrl, { lazyConnect: true });
      try {
        await redis.connect();
        const keys = await redis.keys(`${serviceName}:*`);
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    });
    const archive = archiveReader(cluster.url);
    cleanup.push(() => archive.close());

    const baseEnv = {
      PATH: process.env.PATH,
      DATABASE_URL: cluster.url,
      RPC_URL: devnet.rpcUrl,
      NETWORK_PASSPHRASE: devnet.networkPassphrase,
      ...contractEnv(devnet),
      SESSION_SECRET: "x".repeat(40),
      SERVICE_NAME: serviceName,
      REDIS_URL: redisUrl,
      RATE_LIMIT_PER_MINUTE: String(o.rateLimit),
      REDIS_TIMEOUT_MS: "1000", // the shared count is judged here, not the deadline (a late reply would blur it)
      WRITER_STALL_TIMEOUT_MS: String(stallTimeoutMs),
    };
    const spawnIndexer = (name: string) => {
      const c = start(name, ["index"], { ...baseEnv, LOG_LEVEL: "info" });
      children.push(c);
      return c;
    };
    const ports = [await freePort(), await freePort()];
    const replicas = ports.map((port) => `http://127.0.0.1:${port}`);
    const standbyPorts = standby === null ? [] : [await freePort(), await freePort()];
    const standbyReplicas = standbyPorts.map((port) => `http://127.0.0.1:${port}`);

    // 1. The topology: a writer, a standby, two replicas; the bulk history indexed.
    const spawned = performance.now();
    const indexers = [spawnIndexer("index-a")];
    await until(() => indexers[0]?.role() === "writer", "index-a to hold the writer lock");
    const coldStartSeconds = (performance.now() - spawned) / 1000;
    const bound = o.handoverBoundSeconds ?? 10;
    const handoverBound = typeof bound === "number" ? bound : bound(coldStartSeconds);
    indexers.push(spawnIndexer("index-b"));
    await until(() => indexers[1]?.role() === "standby", "index-b to wait as a standby");
    const serving: [name: string, port: number, readUrl: string | null][] = [
      ...ports.map((port, i) => [`serve-${i + 1}`, port, null] as [string, number, null]),
      ...standbyPorts.map(
        (port, i) =>
          [`serve-on-standby-${i + 1}`, port, standby?.url ?? null] as [string, number, string | null],
      ),
    ];
    for (const [name, port, readUrl] of serving)
      children.push(
        start(name, ["serve"], {
          ...baseEnv,
          ...(readUrl === null ? {} : { DATABASE_READ_URL: readUrl }),
          LOG_LEVEL: "warn",
          PORT: String(port),
          HOME_DOMAIN: "names.example.test",
        }),
      );
    const setup = client("127.0.0.1");
    for (const [name, port] of serving) {
      const url = `http://127.0.0.1:${port}`;
      await untilAsync(async () => {
        const c = children.find((c) => c.name === name);
        if (c?.child.exitCode !== null) throw new GaveUp("it exited");
        return (await setup.get(`${url}/health`)).status === 200;
      }, `${url} to serve`).catch((err: Error) => {
        throw new Error(`${err.message}: ${children.find((c) => c.name === name)?.tail()}`);
      });
    }
    log(`replicas serving after ${((performance.now() - spawned) / 1000).toFixed(1)} s`);
    await untilAsync(async () => (await archive.count()) >= bulkEvents, "the bulk history to be indexed");
    log(
      `topology up: 2 indexers, 2 replicas (${replicas.join(", ")})${standby === null ? "" : `, a hot standby applying ${o.standby?.applyDelayMs} ms late and 2 replicas reading it (${standbyReplicas.join(", ")})`}, ${bulkEvents} bulk events indexed`,
    );

    // Events keep coming for the rest of the run: a ledger of 1–12 new names every 100 ms.
    const producer = liveProducer(devnet, rand);
    cleanup.push(async () => producer.stop());

    // 2. The global limit across the replicas.
    const rateLimit = await rateLimitCheck(replicas, o.rateLimit, redisUrl, serviceName);
    log(
      `rate limit: admitted ${rateLimit.admitted}/${rateLimit.limit} of ${rateLimit.sent} sent within ${rateLimit.windowSeconds.toFixed(1)} s (429: ${rateLimit.limited}, other: ${rateLimit.other}); Redis counted ${rateLimit.redisCount}; per replica ${rateLimit.perReplica.map((r) => `${r.admitted}+${r.limited}`).join(" / ")}`,
    );
    if (!rateLimit.ok)
      failures.push(
        `rate limit: admitted ${rateLimit.admitted}/${rateLimit.limit}; ${rateLimit.headerProblems.join("; ")}`,
      );

    // 2b. The standby: how soon each route has a change, and no cache keeping an old answer.
    let freshness: FreshnessResult | null = null;
    if (standby !== null && o.standby !== undefined) {
      freshness = await freshnessCheck({
        devnet,
        primaryUrl: cluster.url,
        standbyUrl: standby.url,
        replicas: standbyReplicas,
        changes: o.standby.changes,
        names: bulkEvents - NAMESPACES,
        holders: HOLDERS,
        rand,
        boundSeconds: o.standby.boundSeconds ?? 30 + o.standby.applyDelayMs / 1000,
        log,
      });
      const f = freshness;
      const p = (x: { p50: number | null; p95: number | null; n: number }) =>
        `p50 ${fmtS(x.p50)} / p95 ${fmtS(x.p95)} (n ${x.n})`;
      log(
        `standby freshness over ${f.changes} changes (${f.requests} requests): on the primary ${p(f.primary)}, on the standby ${p(f.standby)}; resolve ${p(f.routes.resolve)}; name ${p(f.routes.name)}; by-holder ${p(f.routes["by-holder"])}; history ${p(f.routes.history)}; old answers after the standby had the change: ${f.staleAfterStandby.length}; old after new: ${f.flips.length}; other answers: ${f.bad.length}`,
      );
      const lags = f.status.map((s) => s.lagSeconds).filter((x): x is number => x !== null);
      log(
        `  /v1/status Read replica while writing: ${[...new Set(f.status.map((s) => s.state))].join(", ")}, lagSeconds ${Math.min(...lags).toFixed(3)}–${Math.max(...lags).toFixed(3)}`,
      );
      if (!f.ok)
        failures.push(
          `standby freshness: ${[...f.unfinished, ...f.staleAfterStandby, ...f.flips, ...f.bad].slice(0, 8).join("; ")}`,
        );
      if (f.status.some((s) => s.state !== "operational" || s.lagSeconds === null))
        failures.push(`standby status while writing: ${JSON.stringify(f.status)}`);
    }

    // 3. Writer hand-over.
    await sleep(500 + Math.floor(rand() * 1500));
    const handover = await handoverCheck({
      indexers,
      spawnIndexer,
      archive,
      replicas,
      boundSeconds: handoverBound,
    });
    log(
      `hand-over: writer (pid ${handover.killedPid}) SIGKILLed at ${handover.archivedAtKill} events; standby took the lock after ${fmt(handover.lockTakenSeconds)}, committed after ${fmt(handover.writingSeconds)}, /v1/status advanced after ${fmt(handover.statusAdvancedSeconds)} (bound ${handoverBound} s)`,
    );
    if (!handover.ok) failures.push(`hand-over: writing after ${fmt(handover.writingSeconds)}`);

    // 3b. A frozen writer (SIGSTOP): it keeps its connections, so only the bounds on its lease and its batch
    // (WRITER_STALL_TIMEOUT_MS) let the standby in.
    await sleep(500 + Math.floor(rand() * 1500));
    const freeze = await freezeCheck({
      indexers,
      archive,
      stallTimeoutMs,
      boundSeconds: stallTimeoutMs / 1000 + handoverBound,
    });
    log(
      `frozen writer: pid ${freeze.frozenPid} SIGSTOPped (WRITER_STALL_TIMEOUT_MS ${stallTimeoutMs}); standby took the lock after ${fmt(freeze.lockTakenSeconds)}, committed after ${fmt(freeze.writingSeconds)} (bound ${freeze.boundSeconds} s); SIGCONT: it noticed after ${fmt(freeze.noticedSeconds)}, its epoch ${freeze.frozenEpoch} fenced by ${freeze.fenceEpochAtContinue} at SIGCONT, writer lock taken after it ${freeze.activeAfterContinue}`,
    );
    if (!freeze.ok)
      failures.push(
        `frozen writer: standby writing after ${fmt(freeze.writingSeconds)}, noticed after ${fmt(freeze.noticedSeconds)}, epoch ${freeze.frozenEpoch} vs fence ${freeze.fenceEpochAtContinue}, ${freeze.activeAfterContinue} lock takes after SIGCONT`,
      );

    // 4. PostgreSQL restart under load.
    const restart = await restartCheck({
      cluster,
      archive,
      replicas,
      rand,
      loadSeconds: o.loadSeconds,
      downSeconds: o.downSeconds ?? 2,
      clients: o.clients ?? 4,
      names: bulkEvents - NAMESPACES,
      boundSeconds: recoveryBound,
    });
    log(
      `restart: ${restart.requests} requests (${Object.entries(restart.byStatus)
        .map(([k, v]) => `${k}: ${v}`)
        .join(
          ", ",
        )}), slowest ${restart.slowestMs} ms; stop took ${restart.stopSeconds.toFixed(1)} s, cluster down ${restart.downSeconds.toFixed(1)} s (start took ${restart.startSeconds.toFixed(1)} s), 503s from ${restart.unavailableSeconds?.map((x) => x.toFixed(1)).join(" to ") ?? "never"} s after the stop command, /v1/status said Database down ${restart.statusSawDown}×; all 200 again ${fmt(restart.recoverySeconds)} after it was back (bound ${recoveryBound} s); indexing resumed ${fmt(restart.indexingResumedSeconds)} after`,
    );
    for (const [s, ok, unavailable, other] of restart.timeline)
      log(`  second ${String(s).padStart(3)}: 200 ${ok}, 503 ${unavailable}, other ${other}`);
    if (!restart.ok)
      failures.push(
        `restart: ${restart.bad.length} bad answers (${restart.bad.slice(0, 5).join("; ")}), all 200 after ${fmt(restart.recoverySeconds)}, indexing resumed after ${fmt(restart.indexingResumedSeconds)}`,
      );

    // 5. The archive against the chain.
    // The freshness check's changes are on the chain too.
    const liveEvents = producer.stop() + (freshness?.changes ?? 0);
    const chainEvents = bulkEvents + liveEvents;
    await untilAsync(
      async () => (await archive.count()) >= chainEvents,
      "the archive to catch up",
      120_000,
    ).catch((err: Error) => failures.push(err.message));
    const reference = await createTestDatabase("postgres");
    cleanup.push(() => reference.close());
    const ref = indexerFor(devnet, reference.db, { concurrency: 2 });
    await ref.init();
    await runUntilIdle(ref, 100_000);
    const referenceIds = (await reference.query<{ id: string }>("select id from events")).map((r) => r.id);
    if (referenceIds.length !== chainEvents)
      failures.push(
        `the uninterrupted run archived ${referenceIds.length} events, the chain has ${chainEvents}`,
      );
    const { lost, extra, duplicated, archived } = await archive.compare(referenceIds);
    const coverage: TopologySuiteResult["coverage"] = [];
    for (const url of replicas) {
      const answer = await setup.get(`${url}/v1/coverage`);
      const body =
        answer.status === 200 ? (JSON.parse(answer.body) as { complete: boolean; gaps: unknown[] }) : null;
      coverage.push({ complete: body?.complete === true, gaps: body?.gaps.length ?? -1 });
    }
    log(
      `archive: ${archived} events, chain ${chainEvents} (${liveEvents} produced during the run); lost ${lost}, extra ${extra}, duplicated history rows ${duplicated}; coverage ${coverage.map((c) => `complete ${c.complete}, ${c.gaps} gaps`).join(" / ")}`,
    );
    if (lost > 0 || extra > 0 || duplicated > 0 || archived !== chainEvents)
      failures.push(
        `archive: ${archived}/${chainEvents}, lost ${lost}, extra ${extra}, duplicated ${duplicated}`,
      );
    if (coverage.some((c) => c.gaps !== 0)) failures.push("coverage records a gap (or did not answer)");

    // Every process still running, then stopped cleanly.
    const running = children.filter((c) => c.child.exitCode === null && c.child.signalCode === null);
    const dead = children.filter((c) => !running.includes(c) && c.child.pid !== handover.killedPid);
    for (const c of dead) failures.push(`${c.name} exited by itself (${c.child.exitCode}): ${c.tail()}`);
    // With a standby, the indexers first: they write even with nothing new on the chain (the head they observed),
    // and the standby's replicas must then report it caught up.
    const indexersFirst = standby === null ? [] : running.filter((c) => c.name.startsWith("index-"));
    for (const c of indexersFirst) c.child.kill("SIGTERM");
    const exitCodes = await Promise.all(indexersFirst.map((c) => c.exited));

    // The standby's lag as /v1/status reports it once nothing is written (the indexers stopped), then with the
    // standby stopped.
    let standbyResult: StandbyResult | null = null;
    if (standby !== null && freshness !== null && o.standby !== undefined) {
      // Addresses of their own (127.0.4.x), one after another: polled, they would exhaust one address's limit.
      const statusClients = Array.from({ length: 50 }, (_, i) =>
        client(`127.0.4.${i + 1}`, { keepAlive: false }),
      );
      let nextStatusClient = 0;
      const readStatus = async (url: string) => {
        const http = statusClients[nextStatusClient++ % statusClients.length] as HttpClient;
        const answer = await http.get(`${url}/v1/status`);
        if (answer.status !== 200) throw new Error(`/v1/status answered ${answer.status} ${answer.body}`);
        const body = JSON.parse(answer.body) as { components: (ReplicaStatusSample & { name: string })[] };
        const c = body.components.find((x) => x.name === "Read replica");
        return c === undefined ? null : { state: c.state, lagSeconds: c.lagSeconds, lagBytes: c.lagBytes };
      };
      const caughtUp: ReplicaStatusSample[] = [];
      for (const url of standbyReplicas) {
        let last: ReplicaStatusSample | null = null;
        await untilAsync(
          async () => {
            last = await readStatus(url);
            if (last?.lagBytes === 0) return true;
            await sleep(100);
            return false;
          },
          "the standby to catch up",
          60_000,
        ).catch((err: Error) => failures.push(`${err.message}: ${JSON.stringify(last)}`));
        if (last !== null) caughtUp.push(last);
      }
      const absentWithoutReplica = (await Promise.all(replicas.map(readStatus))).every((c) => c === null);
      await standby.halt();
      const stopped: ReplicaStatusSample[] = [];
      for (const url of standbyReplicas)
        stopped.push((await readStatus(url)) ?? { state: "absent", lagSeconds: null, lagBytes: null });
      log(
        `standby idle: Read replica ${caughtUp.map((c) => `${c.state} ${c.lagSeconds} s / ${c.lagBytes} bytes`).join(", ")}; stopped: ${stopped.map((c) => c.state).join(", ")}; absent on the replicas reading the primary: ${absentWithoutReplica}`,
      );
      if (
        caughtUp.length !== standbyReplicas.length ||
        caughtUp.some((c) => c.state !== "operational" || c.lagSeconds !== 0)
      )
        failures.push(`standby idle: ${JSON.stringify(caughtUp)}`);
      if (stopped.some((c) => c.state !== "down"))
        failures.push(`standby stopped: ${JSON.stringify(stopped)}`);
      if (!absentWithoutReplica)
        failures.push("a replica reading the primary shows a Read replica component");
      for (const c of statusClients) c.close();
      standbyResult = {
        applyDelayMs: o.standby.applyDelayMs,
        freshness,
        caughtUp,
        stopped,
        absentWithoutReplica,
      };
    }

    const rest = running.filter((c) => !indexersFirst.includes(c));
    for (const c of rest) c.child.kill("SIGTERM");
    exitCodes.push(...(await Promise.all(rest.map((c) => c.exited))));
    if (exitCodes.some((code) => code !== 0))
      failures.push(`exit codes after SIGTERM: ${exitCodes.join(",")}`);
    setup.close();
    return {
      seed: o.seed,
      chainEvents,
      liveEvents,
      archived,
      lost,
      extra,
      duplicated,
      coverage,
      rateLimit,
      handover,
      freeze,
      restart,
      standby: standbyResult,
      exitCodes,
      failures,
      ok: failures.length === 0,
    };
  } finally {
    for (const c of children) signalGroup(c.child, "SIGKILL");
    await Promise.all(children.map((c) => c.exited));
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  }
}

// ---- the checks ----

async function rateLimitCheck(
  replicas: string[],
  limit: number,
  redisUrl: string,
  serviceName: string,
): Promise<RateLimitResult> {
  // An address of its own on the loopback network (127.0.0.0/8 is all local), so the limit counts this client
  // alone and the other checks' clients are not limited.
  const ip = "127.0.0.2";
  const http = client(ip);
  const sent = Math.ceil(limit * 1.5);
  const paths = ["/health", "/v1/resolve/bulk0/n0", "/v1/status"];
  const problems: string[] = [];
  const answers: (Answer & { replica: number })[] = [];
  const send = async (i: number) => {
    const replica = i % replicas.length;
    const answer = await http.get(`${replicas[replica]}${paths[i % paths.length]}`);
    answers[i] = { ...answer, replica };
  };
  const started = performance.now();
  // The first requests one at a time: RateLimit-Remaining must count down by one whichever replica answers.
  const sequential = Math.min(20, limit);
  for (let i = 0; i < sequential; i++) {
    await send(i);
    const remaining = Number(answers[i]?.headers["ratelimit-remaining"]);
    if (remaining !== limit - i - 1)
      problems.push(
        `request ${i + 1} (replica ${(answers[i]?.replica ?? 0) + 1}): RateLimit-Remaining ${remaining}, expected ${limit - i - 1}`,
      );
  }
  // The rest 8 at a time.
  let next = sequential;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < sent) await send(next++);
    }),
  );
  const windowSeconds = (performance.now() - started) / 1000;
  if (windowSeconds >= 60)
    problems.push(`the requests took ${windowSeconds.toFixed(1)} s, longer than one window`);
  const perReplica = replicas.map(() => ({ admitted: 0, limited: 0, limitHeaders: new Set<string>() }));
  let admitted = 0;
  let limited = 0;
  let other = 0;
  const resets: number[][] = replicas.map(() => []);
  for (const a of answers) {
    const r = perReplica[a.replica] as (typeof perReplica)[number];
    r.limitHeaders.add(String(a.headers["ratelimit-limit"]));
    resets[a.replica]?.push(Number(a.headers["ratelimit-reset"]));
    if (a.status === 429) {
      limited++;
      r.limited++;
      if (!(Number(a.headers["retry-after"]) > 0)) problems.push("a 429 without Retry-After");
      if (a.headers["ratelimit-remaining"] !== "0")
        problems.push(`a 429 with RateLimit-Remaining ${a.headers["ratelimit-remaining"]}`);
      if (!a.body.includes('"rate_limited"')) problems.push(`a 429 with body ${a.body.slice(0, 80)}`);
    } else if (a.status === 200) {
      admitted++;
      r.admitted++;
    } else other++;
  }
  for (const [i, r] of perReplica.entries())
    if (r.limitHeaders.size !== 1 || !r.limitHeaders.has(String(limit)))
      problems.push(`replica ${i + 1} sent RateLimit-Limit ${[...r.limitHeaders].join(",")}`);
  // Both replicas read the window's reset from the one Redis key: their last answers agree within a second.
  const lastResets = resets.map((r) => r.at(-1) ?? Number.NaN);
  if (Math.max(...lastResets) - Math.min(...lastResets) > 1)
    problems.push(`RateLimit-Reset apart across replicas: ${lastResets.join(" vs ")}`);
  // The admitted ones must be the first `limit` (a later request admitted means the count was not shared).
  const lastAdmitted = answers.findLastIndex((a) => a.status === 200);
  if (lastAdmitted >= limit + Math.ceil(limit * 0.02))
    problems.push(`request ${lastAdmitted + 1} was admitted, past the limit`);
  const redis = new Redis(redisUrl);
  let redisCount = -1;
  try {
    redisCount = Number(await redis.get(`${serviceName}:ratelimit:${ip}`));
  } finally {
    redis.disconnect();
  }
  if (redisCount !== sent) problems.push(`Redis counted ${redisCount} requests of ${sent}`);
  http.close();
  return {
    limit,
    sent,
    admitted,
    limited,
    other,
    redisCount,
    windowSeconds,
    perReplica: perReplica.map((r) => ({
      admitted: r.admitted,
      limited: r.limited,
      limitHeaders: [...r.limitHeaders],
    })),
    headerProblems: problems,
    ok:
      Math.abs(admitted - limit) <= limit * 0.02 &&
      other === 0 &&
      admitted + limited === sent &&
      perReplica.every((r) => r.admitted > 0 && r.limited > 0) &&
      problems.length === 0,
  };
}

async function handoverCheck(o: {
  indexers: Child[];
  spawnIndexer: (name: string) => Child;
  archive: ArchiveReader;
  replicas: string[];
  boundSeconds: number;
}): Promise<HandoverResult> {
  const alive = o.indexers.filter((c) => c.child.exitCode === null);
  const writer = alive.find((c) => c.role() === "writer");
  const standby = alive.find((c) => c.role() === "standby");
  if (writer === undefined || standby === undefined)
    throw new Error("no writer and standby to hand over between");
  const http = client("127.0.0.3");
  const processedLedger = async (url: string) => {
    const a = await http.get(`${url}/v1/status`);
    if (a.status !== 200) return null;
    const body = JSON.parse(a.body) as { components: { name: string; ledger?: number | null }[] };
    return body.components.find((c) => c.name === "Indexer")?.ledger ?? null;
  };
  const activeBefore = standby.activeCount();
  const killed = performance.now();
  signalGroup(writer.child, "SIGKILL");
  await writer.exited;
  // Whatever the writer committed is in; from here on new rows can only come from the standby, and only the
  // standby can move the processed ledger the replicas report past its value now.
  const archivedAtKill = await o.archive.count();
  const ledgerAtKill = await o.archive.processedLedger();
  const elapsed = () => (performance.now() - killed) / 1000;
  let lockTaken: number | null = null;
  let writing: number | null = null;
  let statusAdvanced: number | null = null;
  const deadline = performance.now() + Math.max(30_000, o.boundSeconds * 3000);
  while (
    performance.now() < deadline &&
    (lockTaken === null || writing === null || statusAdvanced === null)
  ) {
    if (lockTaken === null && standby.activeCount() > activeBefore) lockTaken = elapsed();
    if (writing === null && (await o.archive.count()) > archivedAtKill) writing = elapsed();
    if (statusAdvanced === null) {
      const ledgers = await Promise.all(o.replicas.map(processedLedger));
      if (ledgers.every((l) => l !== null && l > ledgerAtKill)) statusAdvanced = elapsed();
    }
    await sleep(20);
  }
  http.close();
  // The killed process comes back as the new standby, so the restart check again has a writer and a standby.
  const restarted = o.spawnIndexer(`${writer.name}'`);
  o.indexers.splice(o.indexers.indexOf(writer), 1, restarted);
  await until(() => restarted.role() === "standby", `${restarted.name} to wait as a standby`);
  return {
    killedPid: writer.child.pid ?? -1,
    archivedAtKill,
    lockTakenSeconds: lockTaken,
    writingSeconds: writing,
    statusAdvancedSeconds: statusAdvanced,
    boundSeconds: o.boundSeconds,
    ok: writing !== null && writing <= o.boundSeconds && lockTaken !== null,
  };
}

async function freezeCheck(o: {
  indexers: Child[];
  archive: ArchiveReader;
  stallTimeoutMs: number;
  boundSeconds: number;
}): Promise<FreezeResult> {
  const alive = o.indexers.filter((c) => c.child.exitCode === null);
  const writer = alive.find((c) => c.role() === "writer");
  const standby = alive.find((c) => c.role() === "standby");
  if (writer === undefined || standby === undefined) throw new Error("no writer and standby to freeze");
  const activeBefore = standby.activeCount();
  const frozen = performance.now();
  writer.child.kill("SIGSTOP");
  const elapsed = (from: number) => (performance.now() - from) / 1000;
  let lockTaken: number | null = null;
  let writing: number | null = null;
  let archivedAtLock = 0;
  let fenceEpochAtContinue = 0;
  const frozenEpoch = writer.epoch();
  const deadline = performance.now() + Math.max(30_000, o.boundSeconds * 3000);
  try {
    while (performance.now() < deadline && writing === null) {
      if (lockTaken === null && standby.activeCount() > activeBefore) {
        lockTaken = elapsed(frozen);
        // From here on only the standby can commit: the frozen writer's batch, if any, was ended.
        archivedAtLock = await o.archive.count();
      }
      if (lockTaken !== null && (await o.archive.count()) > archivedAtLock) writing = elapsed(frozen);
      await sleep(20);
    }
    fenceEpochAtContinue = await o.archive.epoch();
  } finally {
    writer.child.kill("SIGCONT");
  }
  // Continued: it must find its sessions ended, say so, and stand by; anything it logs as indexed would be a write.
  const continued = performance.now();
  const activeAtContinue = writer.activeCount();
  let noticed: number | null = null;
  while (performance.now() < continued + 30_000 && noticed === null) {
    if (writer.lostCount() > 0 || writer.role() === "standby") noticed = elapsed(continued);
    else await sleep(20);
  }
  // Time for anything it might still do (a batch it had fetched, a lock it might take) to show.
  await sleep(o.stallTimeoutMs);
  const activeAfterContinue = writer.activeCount() - activeAtContinue;
  return {
    frozenPid: writer.child.pid ?? -1,
    stallTimeoutMs: o.stallTimeoutMs,
    lockTakenSeconds: lockTaken,
    writingSeconds: writing,
    noticedSeconds: noticed,
    frozenEpoch,
    fenceEpochAtContinue,
    activeAfterContinue,
    boundSeconds: o.boundSeconds,
    ok:
      writing !== null &&
      writing <= o.boundSeconds &&
      noticed !== null &&
      frozenEpoch !== null &&
      fenceEpochAtContinue > frozenEpoch &&
      activeAfterContinue === 0,
  };
}

async function restartCheck(o: {
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

// ---- the live chain ----

/** Appends a ledger of 1–12 `name_v1` issues every 100 ms; `stop()` returns how many events it appended. */
function liveProducer(devnet: NamingDevnet, rand: () => number): { stop(): number } {
  const namespaces = devnet.bulk?.namespaces ?? [];
  let appended = 0;
  let label = 0;
  const tick = () => {
    const n = 1 + Math.floor(rand() * 12);
    const batch: SyntheticEvent[] = [];
    for (let i = 0; i < n; i++) {
      const ns = namespaces[label % namespaces.length];
      if (ns === undefined) throw new Error("the bulk scenario has no namespaces");
      const name = `live${label++}`;
      const holder = bulkHolder(label % 200).publicKey();
      const { topics, data } = encodeEvent({
        type: "name_v1",
        node: nameNode(name, ns.label),
        generation: 1n,
        data: { label: name, action: "issue", holder, address: holder, expiresAt: 0n },
      });
      batch.push({ contractId: ns.registrar, topics, value: data });
    }
    devnet.chain.appendSyntheticLedger(batch);
    appended += n;
  };
  const timer = setInterval(tick, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return appended;
    },
  };
}

// ---- processes, HTTP, the archive ----

interface Child {
  name: string;
  child: ChildProcess;
  /** How many times it logged that it holds the writer lock. */
  activeCount(): number;
  /** How often it logged losing the writer lock. */
  lostCount(): number;
  /** The writer epoch it last logged taking, if any. */
  epoch(): number | null;
  /** What it last logged: holding the writer lock, or waiting as a standby. */
  role(): "writer" | "standby" | null;
  tail(): string;
  exited: Promise<number | null>;
}

function start(name: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const child = spawnInGroup(process.execPath, [CLI, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let active = 0;
  let lost = 0;
  let epoch: number | null = null;
  let role: "writer" | "standby" | null = null;
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    active += text.split("indexer active").length - 1;
    lost += text.split("lost its writer lock").length - 1;
    for (const m of text.matchAll(/"epoch":(\d+)[^\n]*indexer active/g)) epoch = Number(m[1]);
    const [w, s] = [text.lastIndexOf("indexer active"), text.lastIndexOf("waiting as a standby")];
    if (w !== -1 || s !== -1) role = w > s ? "writer" : "standby";
    out = (out + text).slice(-200_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    name,
    child,
    activeCount: () => active,
    lostCount: () => lost,
    epoch: () => epoch,
    role: () => role,
    tail: () => out.slice(-2000),
    exited,
  };
}

interface ArchiveReader {
  count(): Promise<number>;
  /** The indexer's processed ledger as committed (what /v1/status reports as the Indexer's ledger). */
  processedLedger(): Promise<number>;
  epoch(): Promise<number>;
  compare(
    referenceIds: string[],
  ): Promise<{ lost: number; extra: number; duplicated: number; archived: number }>;
  close(): Promise<void>;
}

/** Reads the archive on the cluster through a connection of its own, reconnecting after the restart. */
function archiveReader(url: string): ArchiveReader {
  let current: pg.Client | null = null;
  const connection = async () => {
    if (current !== null) return current;
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    c.on("error", () => {
      if (current === c) current = null;
    });
    await c.connect();
    current = c;
    return c;
  };
  const query = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => {
    const c = await connection();
    try {
      return (await c.query<T>(sql, params)).rows;
    } catch (err) {
      if (current === c) current = null;
      await c.end().catch(() => undefined);
      throw err;
    }
  };
  const n = async (sql: string, params: unknown[] = []) =>
    Number((await query<{ n: string }>(sql, params))[0]?.n ?? 0);
  return {
    count: () => n("select count(*) as n from events"),
    processedLedger: () => n("select max(processed_ledger) as n from indexer_state"),
    epoch: () => n("select epoch as n from writer_fence where id = 1"),
    compare: async (ids) => ({
      lost: await n(
        "select count(*) as n from unnest($1::text[]) as ref(id) where not exists (select 1 from events e where e.id = ref.id)",
        [ids],
      ),
      extra: await n("select count(*) as n from events where not (id = any($1::text[]))", [ids]),
      duplicated:
        (await n("select count(*) - count(distinct id) as n from events")) +
        (await n("select count(*) - count(distinct (event_id, node)) as n from name_history")),
      archived: await n("select count(*) as n from events"),
    }),
    close: async () => {
      await current?.end().catch(() => undefined);
      current = null;
    },
  };
}

/** Thrown by a check to stop waiting at once. */
class GaveUp extends Error {}

async function until(check: () => boolean, what: string, ms = 120_000): Promise<void> {
  return untilAsync(async () => check(), what, ms);
}

async function untilAsync(check: () => Promise<boolean>, what: string, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (
      await check().catch((err: unknown) => {
        if (err instanceof GaveUp) throw err;
        return false;
      })
    )
      return;
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function untilValue<T>(read: () => Promise<T>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      return await read();
    } catch (err) {
      if (Date.now() > end) throw err;
      await sleep(20);
    }
  }
}

const fmt = (x: number | null) => (x === null ? "never" : `${x.toFixed(2)} s`);
const fmtS = (x: number | null) => (x === null ? "–" : `${x.toFixed(2)} s`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
