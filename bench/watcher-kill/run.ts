// Issue 17's watcher kill suite: the escrow watcher (`namereg escrow watch`) across seeded market flows and the
// billing watcher (`namereg billing watch`) across seeded billing payments, each process SIGKILLed every 0.5–4 s
// and restarted; prints both sets of figures and exits 1 unless every obligation was paid, refunded or parked
// exactly once (balances, escrow transactions and `reconcile`) and every billing payment was stored once and
// applied or quarantined once as its kind calls for (paid-until recomputed from the chain, and equal to an
// uninterrupted watcher's). Needs PostgreSQL on 127.0.0.1 (TEST_POSTGRES_URL).
// Usage: npx node bench/watcher-kill/run.ts [--seed 1] [--flows 100] [--payments 1000] [--payers 6]
//        [--only escrow|billing]
import { billingExactlyOnce, runBillingCrashPayments, runCrashFlows } from "@namereg/server/testing";

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  const inline = process.argv.find((a) => a.startsWith(`--${name}=`));
  if (inline !== undefined) return inline.slice(name.length + 3);
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback);
}

const seed = Number(option("seed", "1"));
const flows = Number(option("flows", "100"));
const payments = Number(option("payments", "1000"));
const payers = Number(option("payers", "6"));
const only = option("only", "both");
const log = (line: string) => process.stderr.write(`${line}\n`);
const show = (value: unknown) =>
  JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2);

let ok = true;
if (only !== "billing") {
  const escrow = await runCrashFlows({ flows, seed, concurrency: 10, log });
  console.log("escrow watcher:", show(escrow));
  const held =
    escrow.balanceMismatches.length === 0 &&
    escrow.obligationsPaidTwice === 0 &&
    escrow.strayEscrowTransactions === 0 &&
    escrow.payoutsParked === escrow.payoutsParkedExpected &&
    escrow.paymentsParked === 0 &&
    escrow.feeWithdrawalsPaid === escrow.byKind.fee &&
    escrow.reconcileOk &&
    escrow.floatError === 0n;
  console.log(`escrow exactly once: ${held ? "held" : "BROKEN"}`);
  ok &&= held;
}
if (only !== "escrow") {
  const billing = await runBillingCrashPayments({ payments, seed, payers, log });
  console.log("billing watcher:", show(billing));
  const held = billingExactlyOnce(billing);
  console.log(`billing exactly once: ${held ? "held" : "BROKEN"}`);
  ok &&= held;
}
process.exit(ok ? 0 : 1);
