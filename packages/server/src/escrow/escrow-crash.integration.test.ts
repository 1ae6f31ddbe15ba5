// The escrow watcher SIGKILLed at random moments across seeded market flows (a short variant of
// bench/escrow-crash, which runs 100): every deposit ends paid, refunded or parked exactly once; dust stays parked
// at no cost to the escrow, a native-token transfer is parked, then refunded once by the operator, and the
// operator's withdrawal of part of a sale's fee is paid once. And a backup taken before any payout, restored after
// all is paid: the restarted watcher (killed at random again) finds every payout on chain by its memo and pays none
// twice, and reconcile, which named them all right after the restore, holds to the stroop.
import { describe, expect, it } from "vitest";
import type { CrashRunFigures } from "../../test/fixtures/escrow-crash-figures.ts";
import { FLOW_KINDS } from "../../test/fixtures/escrow-crash-flow.ts";
import { runCrashFlows } from "../../test/fixtures/escrow-crash-run.ts";
import { BACKSTOP_MS, withProgress } from "../../test/fixtures/progress.ts";

/** Exactly once, to the stroop: what every run must end with, killed or restored. */
function expectExactlyOnce(figures: CrashRunFigures): void {
  expect(figures.kills).toBeGreaterThan(0);
  expect(figures.balanceMismatches).toEqual([]);
  expect(figures.obligationsPaidTwice).toBe(0);
  expect(figures.strayEscrowTransactions).toBe(0);
  expect(figures.chainMismatches).toBe(0);
  expect(figures.byKind).toMatchObject({ dust: 1, token: 1, fee: 1 });
  expect(figures.feeWithdrawalsPaid).toBe(1);
  expect(figures.payoutsParked).toBe(figures.payoutsParkedExpected);
  expect(figures.paymentsParked).toBe(0);
  expect(figures.escrowTransactions).toBe(figures.payoutsPaid);
  expect(figures.reconcileOk).toBe(true);
  expect(figures.floatError).toBe(0n);
}

describe("escrow watcher crash safety", () => {
  it(
    "keeps every payout exactly once across SIGKILLs (seed 7, one flow of each kind)",
    async () => {
      // Bounded by progress: a ledger with transactions closes every second or so while the flows run, and the
      // watcher moves on every poll afterwards; two minutes without either is a stuck run on any machine.
      const figures = await withProgress("the escrow crash run", 120_000, (onProgress) =>
        runCrashFlows({
          flows: FLOW_KINDS.length,
          seed: 7,
          // All at once, as the restore run does: a flow mostly waits on ledger closes and the watcher, so eleven
          // side by side cost little more wall time than one while the watcher keeps dying under all of them.
          concurrency: FLOW_KINDS.length,
          killEveryMs: [300, 2500],
          onProgress,
        }),
      );
      console.log("escrow crash run:", figures);
      expectExactlyOnce(figures);
    },
    BACKSTOP_MS,
  );

  it(
    "pays nothing twice after a backup taken before the payouts is restored (seed 11, one flow of each kind)",
    async () => {
      const figures = await withProgress("the escrow restore run", 120_000, (onProgress) =>
        runCrashFlows({
          flows: FLOW_KINDS.length,
          seed: 11,
          killEveryMs: [300, 2500],
          restore: true,
          onProgress,
        }),
      );
      console.log("escrow restore run:", figures);
      // Right after the restore, reconcile names every payout of the run: the database forgot them all.
      expect(figures.unexplainedAfterRestore).toBe(figures.escrowTransactions);
      expect(figures.foundOnChain).toBe(figures.escrowTransactions);
      expectExactlyOnce(figures);
    },
    BACKSTOP_MS,
  );
});
