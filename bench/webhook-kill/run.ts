// Issue 29's webhook kill suite: 10,000 outbox changes written while the webhook deliverer (`namereg webhooks
// deliver`) is SIGKILLed at 20 random points of its work and restarted; a loopback receiver answers 500 now and
// then. Prints the figures per endpoint and exits 1 unless every (endpoint, change) was acknowledged at least
// once, first acknowledgements followed outbox order per endpoint, and every delivery row ended delivered.
// Duplicates (at-least-once) are counted and printed. Needs PostgreSQL on 127.0.0.1 (TEST_POSTGRES_URL).
// Usage: npx node bench/webhook-kill/run.ts [--changes 10000] [--kills 20] [--seed 1] [--failure-rate 0.03]
import { runWebhookKill, webhookKillHeld } from "@namereg/server/testing";

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  const inline = process.argv.find((a) => a.startsWith(`--${name}=`));
  if (inline !== undefined) return inline.slice(name.length + 3);
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback);
}

const figures = await runWebhookKill({
  changes: Number(option("changes", "10000")),
  kills: Number(option("kills", "20")),
  seed: Number(option("seed", "1")),
  failureRate: Number(option("failure-rate", "0.03")),
  log: (line) => process.stderr.write(`${line}\n`),
});
console.log("webhook deliverer:", JSON.stringify(figures, null, 2));
const held = webhookKillHeld(figures);
console.log(
  `at least once, in order: ${held ? "held" : "BROKEN"} (${figures.expected} deliveries, ${figures.duplicates} duplicates, ${figures.kills} kills, ${figures.seconds} s)`,
);
process.exit(held ? 0 : 1);
