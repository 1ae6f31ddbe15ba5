#!/usr/bin/env node
// The `namereg` command.
import { notACommand, USAGE } from "./cli-usage.ts";
import { tuneGcForServing } from "./runtime/gc-tuning.ts";

const [command = "help", ...rest] = process.argv.slice(2);

/** The commands that serve the API: their GC setting is applied before the command runs (gc-tuning.ts). */
const SERVING = new Set(["dev", "start", "serve"]);

/** A command: what it runs and, when it has its own, the usage `namereg <command> --help` prints. */
interface Command {
  readonly run: (args: string[]) => Promise<void>;
  readonly usage?: string;
}

// Each command's module is imported only when that command runs: importing them all up front cost every process
// (the CLI tests start dozens) the start-up of the API, the indexer and the devnet together.
const COMMANDS: Record<string, () => Promise<Command>> = {
  dev: async () => {
    const { devCommand } = await import("./runtime/commands/dev.ts");
    return { run: () => devCommand() };
  },
  start: async () => {
    const { startCommand } = await import("./runtime/commands/start.ts");
    return { run: () => startCommand() };
  },
  serve: async () => {
    const { serveCommand } = await import("./runtime/commands/serve.ts");
    return { run: () => serveCommand() };
  },
  index: async () => {
    const { indexCommand } = await import("./runtime/commands/index-command.ts");
    return { run: () => indexCommand() };
  },
  migrate: async () => {
    const { migrateCommand } = await import("./runtime/commands/migrate.ts");
    return { run: () => migrateCommand() };
  },
  devnet: async () => {
    const { runDevnetCli } = await import("@namereg/devnet");
    const { untilSignal } = await import("./runtime/commands/until-signal.ts");
    // Under `npx namereg devnet` the launcher exiting is the stop signal npm does not pass on.
    return { run: (args: string[]) => runDevnetCli(args, process.env, untilSignal().done) };
  },
  escrow: async () => {
    const m = await import("./escrow/cli.ts");
    return { run: m.escrowCommand, usage: m.ESCROW_USAGE };
  },
  billing: async () => {
    const m = await import("./billing/cli.ts");
    return { run: m.billingCommand, usage: m.BILLING_USAGE };
  },
  webhooks: async () => {
    const m = await import("./webhooks/cli.ts");
    return { run: m.webhooksCommand, usage: m.WEBHOOKS_USAGE };
  },
  "dead-letters": async () => {
    const m = await import("./runtime/dead-letters-cli.ts");
    return { run: m.deadLettersCommand, usage: m.DEAD_LETTERS_USAGE };
  },
  backfill: async () => {
    const m = await import("./runtime/backfill-cli.ts");
    return { run: m.backfillCommand, usage: m.BACKFILL_USAGE };
  },
  "legacy-labels": async () => {
    const m = await import("./runtime/legacy-labels-cli.ts");
    return { run: m.legacyLabelsCommand, usage: m.LEGACY_LABELS_USAGE };
  },
};

async function main(): Promise<void> {
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (load === undefined) {
    const answer = notACommand(command);
    (answer.stream === "stdout" ? console.log : console.error)(answer.text);
    process.exitCode = answer.exitCode;
    return;
  }
  const { run, usage } = await load();
  // Asked for help, a command prints it and succeeds — and never starts (`serve --help` must not serve).
  // The devnet parses its own arguments, help included.
  if (command !== "devnet" && (rest.includes("--help") || rest.includes("-h"))) {
    console.log(usage ?? USAGE);
    return;
  }
  if (SERVING.has(command)) tuneGcForServing();
  await run(rest);
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    console.error(`namereg ${command}: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
