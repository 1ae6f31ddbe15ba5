// What `namereg` prints before running anything: the overview, a command's own usage for `--help`, or why a
// command is unknown. Kept apart from cli.ts (which runs on import) so the decision can be tested.

export const USAGE = `usage: namereg <command>

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

/** Text to print instead of running a command, where it goes, and the exit code. */
export interface UsageAnswer {
  readonly text: string;
  readonly stream: "stdout" | "stderr";
  readonly exitCode: 0 | 1;
}

/**
 * The answer for `namereg <command> <rest…>` when it must not run: asked for help (a command prints its own usage,
 * or the overview, and never starts: `serve --help` must not serve), or a command that does not exist (named, so
 * a typo is not mistaken for a usage problem). Null: run it. The devnet parses its own arguments, help included.
 */
export function usageAnswer(
  command: string,
  rest: readonly string[],
  known: ReadonlySet<string>,
  usages: Readonly<Record<string, string>>,
): UsageAnswer | null {
  if (command === "help" || command === "--help" || command === "-h") {
    return { text: USAGE, stream: "stdout", exitCode: 0 };
  }
  if (!known.has(command)) {
    return { text: `namereg: unknown command "${command}"\n\n${USAGE}`, stream: "stderr", exitCode: 1 };
  }
  if (command !== "devnet" && (rest.includes("--help") || rest.includes("-h"))) {
    return { text: usages[command] ?? USAGE, stream: "stdout", exitCode: 0 };
  }
  return null;
}
