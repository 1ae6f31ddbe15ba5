#!/usr/bin/env node
// The `namereg` command.
import { runDevnetCli } from "@namereg/devnet";
import { BILLING_USAGE, billingCommand } from "./billing/cli.ts";
import { ESCROW_USAGE, escrowCommand } from "./escrow/cli.ts";
import { BACKFILL_USAGE, backfillCommand } from "./runtime/backfill-cli.ts";
import { devCommand, indexCommand, migrateCommand, serveCommand, startCommand } from "./runtime/commands.ts";
import { DEAD_LETTERS_USAGE, deadLettersCommand } from "./runtime/dead-letters-cli.ts";
import { tuneGcForServing } from "./runtime/gc-tuning.ts";
import { LEGACY_LABELS_USAGE, legacyLabelsCommand } from "./runtime/legacy-labels-cli.ts";
import { WEBHOOKS_USAGE, webhooksCommand } from "./webhooks/cli.ts";

const USAGE = `usage: namereg <command>

  dev       devnet with the demo scenario + API + indexer on the embedded database (PORT, DEVNET_PORT, DEVNET_ADMIN_PORT, DATA_DIR)
  start     API + indexer against the configured RPC and database
  serve     API only (several replicas may run against one database)
  index     indexer only (one active writer per database; others wait as standbys)
  migrate   apply database migrations and exit
  backfill  fill recorded coverage gaps from an RPC with deeper retention (namereg backfill --rpc <url>)
  escrow    marketplace escrow: parked, release, refund, fees, withdraw-fees, reconcile, watch (namereg escrow --help)
  billing   namespace billing: quarantined, subscriptions, apply, resolve, suspend, resume, watch
  webhooks  hosted webhooks: deliver (the deliverer alone; start and dev run it in process)
  dead-letters  events the indexer could not project: list, retry, resolve (namereg dead-letters --help)
  legacy-labels  verify a discovery file of labels for hash-only legacy allocations (namereg legacy-labels check)
  devnet    a local Stellar RPC with the naming contracts (namereg devnet --help)

Configuration comes from the environment: see docs/configuration.md.`;

const [command = "help", ...rest] = process.argv.slice(2);

/** The commands that serve the API: their GC setting is applied before the command runs (gc-tuning.ts). */
const SERVING = new Set(["dev", "start", "serve"]);

const COMMANDS: Record<string, () => Promise<void>> = {
  dev: () => devCommand(),
  start: () => startCommand(),
  serve: () => serveCommand(),
  index: () => indexCommand(),
  migrate: () => migrateCommand(),
  devnet: () => runDevnetCli(rest),
  escrow: () => escrowCommand(rest),
  billing: () => billingCommand(rest),
  webhooks: () => webhooksCommand(rest),
  "dead-letters": () => deadLettersCommand(rest),
  backfill: () => backfillCommand(rest),
  "legacy-labels": () => legacyLabelsCommand(rest),
};

/** What `namereg <command> --help` prints; commands without their own usage print the overview. */
const USAGES: Record<string, string> = {
  escrow: ESCROW_USAGE,
  billing: BILLING_USAGE,
  webhooks: WEBHOOKS_USAGE,
  "dead-letters": DEAD_LETTERS_USAGE,
  backfill: BACKFILL_USAGE,
  "legacy-labels": LEGACY_LABELS_USAGE,
};

async function main(): Promise<void> {
  const run = COMMANDS[command];
  // Asked for help, a command prints it and succeeds — and never starts (`serve --help` must not serve).
  // The devnet parses its own arguments, help included.
  if (run !== undefined && command !== "devnet" && (rest.includes("--help") || rest.includes("-h"))) {
    console.log(USAGES[command] ?? USAGE);
    return;
  }
  if (run === undefined) {
    const known = command === "help" || command === "--help" || command === "-h";
    (known ? console.log : console.error)(USAGE);
    if (!known) process.exitCode = 1;
    return;
  }
  if (SERVING.has(command)) tuneGcForServing();
  await run();
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    console.error(`namereg ${command}: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
