// 100 seeded market flows (mixed accept, cancel, re-aim, sale elsewhere, expiry, under/over payment, payment
// before the proposal, 1-stroop dust that must stay parked, a native-token transfer parked and then refunded by the
// operator, a sale whose fee the operator partly withdraws) while the escrow watcher process is SIGKILLed at random moments and restarted; prints the
// figures. With --restore, a backup (pg_dump) is taken once every flow has its listing and intent (all flows run at
// once, to meet there), restored once all is paid, and the watcher restarted on it (killed again): every payout must
// be found on chain, none paid twice. Needs PostgreSQL on 127.0.0.1 (TEST_POSTGRES_URL).
// Usage: npx node bench/escrow-crash/run.ts [flows] [seed] [--restore]
import { runCrashFlows } from "@namereg/server/testing";

const args = process.argv.slice(2).filter((a) => a !== "--restore");
const restore = process.argv.includes("--restore");
const flows = Number(args[0] ?? 100);
const seed = Number(args[1] ?? 1);
const figures = await runCrashFlows({
  flows,
  seed,
  concurrency: 10,
  restore,
  log: (line) => process.stderr.write(`${line}\n`),
});
console.log(JSON.stringify(figures, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2));
const ok =
  figures.balanceMismatches.length === 0 &&
  figures.obligationsPaidTwice === 0 &&
  figures.strayEscrowTransactions === 0 &&
  figures.payoutsParked === figures.payoutsParkedExpected &&
  figures.paymentsParked === 0 &&
  figures.feeWithdrawalsPaid === figures.byKind.fee &&
  figures.reconcileOk &&
  figures.chainMismatches === 0 &&
  (!restore ||
    (figures.unexplainedAfterRestore === figures.escrowTransactions &&
      figures.foundOnChain === figures.escrowTransactions)) &&
  figures.floatError === 0n;
console.log(ok ? "exactly once: held" : "exactly once: BROKEN");
process.exit(ok ? 0 : 1);
