// The billing watcher SIGKILLed at random moments across seeded billing payments (a short variant of
// bench/watcher-kill, which runs 1,000): every payment to the billing account is stored once and applied or
// quarantined once, with the outcome its kind calls for; paid-until matches a sum recomputed from the chain and an
// uninterrupted watcher's. The escrow half runs in ../escrow/escrow-crash.integration.test.ts.
import { describe, expect, it } from "vitest";
import { billingExactlyOnce, runBillingCrashPayments } from "../../test/fixtures/billing-crash-run.ts";
import { BACKSTOP_MS, withProgress } from "../../test/fixtures/progress.ts";

describe("billing watcher crash safety", () => {
  it(
    "applies or quarantines every payment exactly once across SIGKILLs (seed 7)",
    async () => {
      // Bounded by progress: a payment ledger closes every second or so while the payments go out, and the
      // watchers move on every poll afterwards; two minutes without either is a stuck run on any machine.
      const figures = await withProgress("the billing crash run", 120_000, (onProgress) =>
        runBillingCrashPayments({
          // Each kind of payment at least once (the first eight), then seeded ones; a few namespaces lapsing
          // mid-run. More only repeats the same paths, each payment a ledger close; the kills go on until one
          // lands after a poll however short the run.
          payments: 40,
          lapsing: 4,
          seed: 7,
          payers: 3,
          killEveryMs: [500, 2500],
          paceMs: [0, 1000],
          onProgress,
        }),
      );
      console.log("billing crash run:", figures);
      expect(figures.killsAfterPoll).toBeGreaterThan(0);
      expect(figures.lost).toEqual([]);
      expect(figures.stray).toEqual([]);
      expect(figures.outcomeMismatches).toEqual([]);
      expect(figures.paidUntilMismatches).toEqual([]);
      expect(figures.uninterruptedDifferences).toEqual([]);
      expect(figures.rows).toBe(figures.paymentsOnChain);
      expect(figures.appliedAs.beforeLapse).toBeGreaterThan(0);
      expect(figures.appliedAs.afterLapse).toBeGreaterThan(0);
      expect(billingExactlyOnce(figures)).toBe(true);
    },
    BACKSTOP_MS,
  );
});
