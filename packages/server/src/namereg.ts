// The `namereg` command as a function: `namereg(argv, io)` runs one command and resolves with its exit code. The
// process entry (cli.ts) calls it with the process's own io; tests call it in their process with strings for
// output and an abort for the stop (test/fixtures/cli.ts), and keep one real-binary run per command family.
import { notACommand, USAGE } from "./cli-usage.ts";
import { CommandExit, type CommandIo } from "./process/command-io.ts";

/** The commands that serve the API: their GC setting is applied before the command runs (gc-tuning.ts). */
const SERVING = new Set(["dev", "start", "serve"]);

/** A command: what it runs and, when it has its own, the usage `namereg <command> --help` prints. */
interface Command {
  readonly run: (args: string[], io: CommandIo) => Promise<number>;
  readonly usage?: string;
}

// Each command's module is imported only when that command runs: importing them all up front cost every process
// the start-up of the API, the indexer and the devnet together.
const COMMANDS: Record<string, () => Promise<Command>> = {
  dev: async () => {
    const { devCommand } = await import("./runtime/commands/dev.ts");
    return { run: (_args, io) => devCommand(io) };
  },
  start: async () => {
    const { startCommand } = await import("./runtime/commands/start.ts");
    return { run: (_args, io) => startCommand(io) };
  },
  serve: async () => {
    const { serveCommand } = await import("./runtime/commands/serve.ts");
    return { run: (_args, io) => serveCommand(io) };
  },
  index: async () => {
    const { indexCommand } = await import("./runtime/commands/index-command.ts");
    return { run: (_args, io) => indexCommand(io) };
  },
  migrate: async () => {
    const { migrateCommand } = await import("./runtime/commands/migrate.ts");
    return { run: (_args, io) => migrateCommand(io) };
  },
  devnet: async () => {
    const { runDevnetCli } = await import("@namereg/devnet");
    // The devnet runs until its stop (SIGINT/SIGTERM or, under `npx namereg devnet`, its launcher exiting: npm does
    // not pass a SIGTERM on) and speaks for itself on the process's streams.
    return { run: (args, io) => runDevnetCli(args, io.env, io.untilStopped().done).then(() => 0) };
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

/** Runs `namereg <argv>`; resolves with the exit code. A command's failure is written to `io.err`, exit 1. */
export async function namereg(argv: readonly string[], io: CommandIo): Promise<number> {
  const [command = "help", ...rest] = argv;
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (load === undefined) {
    const answer = notACommand(command);
    (answer.stream === "stdout" ? io.out : io.err)(answer.text);
    return answer.exitCode;
  }
  try {
    const { run, usage } = await load();
    // Asked for help, a command prints it and succeeds — and never starts (`serve --help` must not serve).
    // The devnet parses its own arguments, help included.
    if (command !== "devnet" && (rest.includes("--help") || rest.includes("-h"))) {
      io.out(usage ?? USAGE);
      return 0;
    }
    if (SERVING.has(command)) io.beforeServing?.();
    return await run(rest, io);
  } catch (err) {
    if (err instanceof CommandExit) return err.code;
    io.err(`namereg ${command}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}
