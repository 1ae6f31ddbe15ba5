// What `namereg` prints when it is given no command it knows: the overview for help, or which command is unknown.
// Kept apart from cli.ts (which runs on import) so the answer can be tested.

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
 * The answer for `namereg <word>` when the word is no command: asked for help, the overview on stdout; anything
 * else is named as unknown (so a typo is not mistaken for a usage question), with the overview, and fails.
 */
export function notACommand(word: string): UsageAnswer {
  if (word === "help" || word === "--help" || word === "-h")
    return { text: USAGE, stream: "stdout", exitCode: 0 };
  return { text: `namereg: unknown command "${word}"\n\n${USAGE}`, stream: "stderr", exitCode: 1 };
}
