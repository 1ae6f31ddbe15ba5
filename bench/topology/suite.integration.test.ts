// The topology suite's short seeded variant: two `namereg serve` replicas and two `namereg index` processes on a
// private PostgreSQL cluster and Redis; the global limit across the replicas, a SIGKILLed writer handing over, a
// SIGSTOPped writer losing its place, a cluster restart under load, then the archive against the chain
// (suite.ts; the full run is bench/topology/run.ts).
// Correctness bounds only: the timing bounds of the full run are not asserted here.
import { BACKSTOP_MS } from "@namereg/server/testing";
import { expect, it } from "vitest";
import { runTopologySuite } from "./suite.ts";

// Every wait inside is bounded step by step (suite.ts: a process up, the bulk indexed, the hand-over); Vitest's
// timeout is only the backstop.

it(
  "shares the limit, hands over the writer and survives a database restart, losing nothing",
  async () => {
    const r = await runTopologySuite({
      seed: 5,
      events: 2_000,
      rateLimit: 300,
      loadSeconds: 2,
      downSeconds: 1.5,
      clients: 3,
      // Generous here, where other test files share the two cores (the full run holds the tight bound), and
      // growing with this machine's measured cold start of a writer: a machine that slow takes longer to take over.
      handoverBoundSeconds: (coldStart) => Math.max(30, 2 * coldStart),
      recoveryBoundSeconds: 30,
    });
    // The global limit: within ±2% of it across both replicas, counted once in Redis.
    expect(Math.abs(r.rateLimit.admitted - 300)).toBeLessThanOrEqual(6);
    expect(r.rateLimit.redisCount).toBe(r.rateLimit.sent);
    expect(r.rateLimit.headerProblems).toEqual([]);
    expect(r.rateLimit.other).toBe(0);
    // The standby took over and wrote.
    expect(r.handover.lockTakenSeconds).not.toBeNull();
    expect(r.handover.writingSeconds).not.toBeNull();
    // A frozen writer: the standby took over and wrote; the continued writer knew it lost the lock, was fenced by
    // the newer epoch (so it could commit nothing) and did not take the lock back.
    expect(r.freeze.writingSeconds).not.toBeNull();
    expect(r.freeze.noticedSeconds).not.toBeNull();
    expect(r.freeze.fenceEpochAtContinue).toBeGreaterThan(r.freeze.frozenEpoch ?? Number.POSITIVE_INFINITY);
    expect(r.freeze.activeAfterContinue).toBe(0);
    // The restart: 200 or a well-formed 503 only, the outage seen, serving again afterwards.
    expect(r.restart.bad).toEqual([]);
    expect(r.restart.byStatus["503"]).toBeGreaterThan(0);
    expect(r.restart.indexingResumedSeconds).not.toBeNull();
    // Nothing lost.
    expect(r.liveEvents).toBeGreaterThan(0);
    expect(r.lost).toBe(0);
    expect(r.extra).toBe(0);
    expect(r.duplicated).toBe(0);
    expect(r.archived).toBe(r.chainEvents);
    expect(r.coverage.map((c) => c.gaps)).toEqual([0, 0]);
    expect(r.failures).toEqual([]);
    expect(r.ok).toBe(true);
  },
  BACKSTOP_MS,
);
