// The escrow watcher as part of a process (`namereg start`, `namereg dev`, `namereg escrow watch`): one signer
// per database. It holds an advisory lock for its whole life, so a second watcher waits as a standby; two
// watchers signing with one escrow key could otherwise race for its sequence numbers.
import { stroopsToXlm } from "@namereg/protocol";
import { Keypair } from "@stellar/stellar-sdk";
import type { Logger } from "pino";
import { rpcServer } from "../chain/rpc-server.ts";
import type { Config } from "../config/index.ts";
import type { Database } from "../db/index.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";
import { whileHoldingLock } from "../process/sole-holder.ts";
import { logPassFailure } from "../watchers/pass-failures.ts";
import { EscrowWatcher } from "./watcher.ts";

export const ESCROW_LOCK = "namereg:escrow";

export interface EscrowProcessOptions {
  readonly config: Config;
  readonly database: Database;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  readonly pollMs?: number;
  /** Where this process counts its failed passes (/metrics). */
  readonly metrics?: ServiceMetrics;
}

/** Runs until the signal; returns at once when the marketplace is off. */
export async function runEscrowWatcherProcess(opts: EscrowProcessOptions): Promise<void> {
  const { config, database, logger, signal } = opts;
  const { market } = config;
  if (!market.enabled) return;
  const { rpcUrl, networkPassphrase } = config.chain;
  const registryId = config.chain.contracts.registry.id;
  const secret = market.escrowSecret;
  if (secret === null || rpcUrl === null || networkPassphrase === null || registryId === null) {
    throw new Error("the escrow watcher needs ESCROW_SECRET, RPC_URL, NETWORK_PASSPHRASE and REGISTRY_ID");
  }
  await whileHoldingLock(
    { database, logger, signal, lockName: ESCROW_LOCK, what: "escrow watcher" },
    async (stop) => {
      const watcher = new EscrowWatcher({
        db: database.db,
        server: rpcServer(rpcUrl),
        networkPassphrase,
        escrow: Keypair.fromSecret(secret),
        registryId,
        startLedger: market.escrowStartLedger,
        // Between getTransaction polls of a sent payout: a ledger closes every few seconds on a real network.
        settle: () => new Promise((r) => setTimeout(r, Math.min(opts.pollMs ?? market.escrowPollMs, 1000))),
        // Money leaving the escrow is news an operator reads in the log: every payout at info, a parked one at warn.
        onPayout: (p) => {
          const fields = { ...p, amountXlm: stroopsToXlm(p.amount), amount: undefined };
          if (p.state === "paid") logger.info(fields, `escrow payout paid: ${p.purpose} to ${p.destination}`);
          else logger.warn(fields, `escrow payout parked: ${p.reason}`);
        },
      });
      logger.info({ escrow: market.escrowAccount }, "escrow watcher active");
      await watcher.run(stop, {
        pollMs: opts.pollMs ?? market.escrowPollMs,
        onError: logPassFailure(logger, "escrow watcher", opts.metrics),
      });
    },
  );
}
