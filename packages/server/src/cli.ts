#!/usr/bin/env node
// The `namereg` command.
import { runDevnetCli } from "@namereg/devnet";
import { BILLING_USAGE, billingCommand } from "./billing/cli.ts";
import { usageAnswer } from "./cli-usage.ts";
import { ESCROW_USAGE, escrowCommand } from "./escrow/cli.ts";
import { BACKFILL_USAGE, backfillCommand } from "./runtime/backfill-cli.ts";
import { devCommand, indexCommand, migrateCommand, serveCommand, startCommand } from "./runtime/commands.ts";
import { DEAD_LETTERS_USAGE, deadLettersCommand } from "./runtime/dead-letters-cli.ts";
import { tuneGcForServing } from "./runtime/gc-tuning.ts";
import { LEGACY_LABELS_USAGE, legacyLabelsCommand } from "./runtime/legacy-labels-cli.ts";
import { WEBHOOKS_USAGE, webhooksCommand } from "./webhooks/cli.ts";

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
  const answer = usageAnswer(command, rest, new Set(Object.keys(COMMANDS)), USAGES);
  if (answer !== null) {
    (answer.stream === "stdout" ? console.log : console.error)(answer.text);
    process.exitCode = answer.exitCode;
    return;
  }
  const run = COMMANDS[command];
  if (run === undefined) return;
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
