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
import { randomBytes } from "node:crypto";
import { prng, signalGroup } from "@namereg/server/testing";
import { archiveCheck } from "./archive-check.ts";
import type { FreshnessResult } from "./freshness.ts";
import { liveProducer, NAMESPACES } from "./live-chain.ts";
import type { Child } from "./processes.ts";
import { type RateLimitResult, rateLimitCheck } from "./rate-limit-check.ts";
import { type RestartResult, restartCheck } from "./restart-check.ts";
import {
  type StandbyOptions,
  type StandbyResult,
  standbyFreshness,
  standbyIdleCheck,
} from "./standby-checks.ts";
import { startTopology } from "./topology.ts";
import { sleep } from "./waiting.ts";
import { type FreezeResult, freezeCheck, type HandoverResult, handoverCheck } from "./writer-checks.ts";

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
    // 1. The topology: a writer, a standby, two replicas; the bulk history indexed.
    const {
      devnet,
      bulkEvents,
      cluster,
      standby,
      archive,
      replicas,
      standbyReplicas,
      indexers,
      spawnIndexer,
      setup,
      coldStartSeconds,
    } = await startTopology({
      events: o.events,
      rateLimit: o.rateLimit,
      stallTimeoutMs,
      redisUrl,
      serviceName,
      ...(o.standby === undefined ? {} : { standby: o.standby }),
      log,
      children,
      cleanup,
    });
    const bound = o.handoverBoundSeconds ?? 10;
    const handoverBound = typeof bound === "number" ? bound : bound(coldStartSeconds);

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
    if (standby !== null && o.standby !== undefined)
      freshness = await standbyFreshness({
        devnet,
        cluster,
        standby,
        standbyReplicas,
        options: o.standby,
        names: bulkEvents - NAMESPACES,
        rand,
        failures,
        log,
      });

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
        `frozen writer: standby writing after ${fmt(freeze.writingSeconds)}, noticed after ${fmt(freeze.noticedSeconds)}, epoch ${freeze.frozenEpoch} vs fence ${freeze.fenceEpochAtContinue}, ${freeze.activeAfterContinue} lock takes after SIGCONT${freeze.unnoticedTail === "" ? "" : `; the continued writer's last output: ${freeze.unnoticedTail}`}`,
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
    const { archived, lost, extra, duplicated, coverage } = await archiveCheck({
      devnet,
      archive,
      replicas,
      setup,
      chainEvents,
      liveEvents,
      cleanup,
      failures,
      log,
    });

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
    const standbyResult: StandbyResult | null =
      standby !== null && freshness !== null && o.standby !== undefined
        ? await standbyIdleCheck({
            standby,
            replicas,
            standbyReplicas,
            options: o.standby,
            freshness,
            failures,
            log,
          })
        : null;

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

const fmt = (x: number | null) => (x === null ? "never" : `${x.toFixed(2)} s`);
