// The topology suite's short seeded variant: two `namereg serve` replicas and two `namereg index` processes on a
// private PostgreSQL cluster and Redis, with a hot standby (2 s apply delay) read by two more replicas; the global
// limit across the replicas, the freshness of changes on the standby's replicas with no stale cached answer, a
// SIGKILLed writer handing over, a SIGSTOPped writer losing its place, a cluster restart under load, then the
// archive against the chain and the standby's lag on /v1/status (suite.ts; the full run is bench/topology/run.ts).
// Correctness bounds only: the timing bounds of the full run are not asserted here.
import { BACKSTOP_MS } from "@namereg/server/testing";
import { expect, it } from "vitest";
import { runTopologySuite } from "./suite.ts";

// Every wait inside is bounded step by step (suite.ts: a process up, the bulk indexed, the hand-over); Vitest's
// timeout is only the backstop.

it(
  "shares the limit, serves fresh answers from a standby, hands over the writer and survives a database restart, losing nothing",
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
      // Four changes: each kind (a transfer, an issue) twice, one at a time behind the 2 s apply delay.
      standby: { applyDelayMs: 2000, changes: 4 },
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
    expect(r.freeze.noticedSeconds, r.freeze.unnoticedTail).not.toBeNull();
    expect(r.freeze.fenceEpochAtContinue).toBeGreaterThan(r.freeze.frozenEpoch ?? Number.POSITIVE_INFINITY);
    expect(r.freeze.activeAfterContinue).toBe(0);
    // The standby: every route on both of its replicas gave each change's new answer, never an old one after the
    // standby had the change (the resolve cache held the old answer when the change came) nor after a new one.
    const standby = r.standby;
    expect(standby).not.toBeNull();
    const f = standby?.freshness;
    expect(f?.unfinished).toEqual([]);
    expect(f?.staleAfterStandby).toEqual([]);
    expect(f?.flips).toEqual([]);
    expect(f?.bad).toEqual([]);
    for (const route of ["resolve", "name", "by-holder", "history"] as const)
      expect(f?.routes[route].n).toBe(8);
    expect(f?.standby.n).toBe(4);
    // /v1/status while writing: operational (30 s bound), and behind by at least the apply delay whenever behind
    // (the last transaction it replayed was committed at least that long ago).
    expect(f?.status.length).toBe(8);
    for (const s of f?.status ?? []) {
      expect(s.state).toBe("operational");
      if ((s.lagBytes ?? 0) > 0) expect(s.lagSeconds).toBeGreaterThanOrEqual(2);
    }
    expect(f?.status.some((s) => (s.lagBytes ?? 0) > 0)).toBe(true);
    // Idle and caught up: 0 s behind, however long ago its last transaction; stopped: down; absent elsewhere.
    expect(standby?.caughtUp).toEqual([
      { state: "operational", lagSeconds: 0, lagBytes: 0 },
      { state: "operational", lagSeconds: 0, lagBytes: 0 },
    ]);
    expect(standby?.stopped.map((s) => s.state)).toEqual(["down", "down"]);
    expect(standby?.absentWithoutReplica).toBe(true);
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
