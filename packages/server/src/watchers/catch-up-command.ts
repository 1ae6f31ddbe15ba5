// `namereg escrow catch-up --rpc <url>` and `namereg billing catch-up --rpc <url>`: a watcher's retention gap read
// through an archive RPC (catch-up.ts). Exit 1 while the gap stays open.

import { parseArgs } from "node:util";
import type { AccountPayment } from "../chain/account-payments.ts";
import type { OwnTransaction } from "../chain/account-transactions.ts";
import { rpcServer } from "../chain/rpc-server.ts";
import type { Config } from "../config/index.ts";
import type { Db } from "../db/types.ts";
import type { CommandIo } from "../process/command-io.ts";
import { openRuntime } from "../process/runtime.ts";
import { catchUpPayments, describeCatchUp } from "./catch-up.ts";

export interface CatchUpTarget {
  /** `escrow` or `billing`: the command's name. */
  readonly feature: string;
  /** "escrow watcher". */
  readonly what: string;
  readonly cursorName: string;
  /** The watched account, or what is missing from the configuration. */
  readonly account: (config: Config) => string | null;
  readonly accountVariable: string;
  readonly store: (tx: Db, payments: readonly AccountPayment[], now: Date) => Promise<void>;
  /** What the account itself sent (the escrow's payouts, for its look-up on chain), stored the same way. */
  readonly storeOwn?: (tx: Db, own: readonly OwnTransaction[]) => Promise<void>;
}

export async function catchUpCommand(
  target: CatchUpTarget,
  args: readonly string[],
  io: CommandIo,
): Promise<number> {
  const command = `namereg ${target.feature} catch-up`;
  const rpcUrl = archiveRpcOf(args);
  if (rpcUrl instanceof Error) {
    io.err(`${command}: ${rpcUrl.message}`);
    return 1;
  }
  const rt = await openRuntime("migrate", io, { command, quiet: true });
  try {
    const account = target.account(rt.config);
    const { networkPassphrase } = rt.config.chain;
    if (account === null || networkPassphrase === null) {
      throw new Error(
        `${command} needs ${target.accountVariable} and NETWORK_PASSPHRASE (the watcher's settings)`,
      );
    }
    const result = await catchUpPayments({
      db: rt.database.db,
      cursorName: target.cursorName,
      what: target.what,
      now: () => new Date(),
      store: (tx, payments) => target.store(tx, payments, new Date()),
      ...(target.storeOwn === undefined ? {} : { storeOwn: target.storeOwn }),
      source: { server: rpcServer(rpcUrl), networkPassphrase, account, own: target.storeOwn !== undefined },
    });
    const { line, ok } = describeCatchUp(target.what, result);
    io.out(line);
    return ok ? 0 : 1;
  } finally {
    await rt.database.close();
  }
}

/** `--rpc <url>`, the one option: the RPC that still holds the gap's ledgers. */
function archiveRpcOf(args: readonly string[]): string | Error {
  try {
    const { values } = parseArgs({ args: [...args], options: { rpc: { type: "string" } }, strict: true });
    if (values.rpc === undefined)
      return new Error("--rpc <url> is required: an RPC that still holds the gap's ledgers");
    if (!/^https?:\/\/[^/\s]+/.test(values.rpc))
      return new Error(`--rpc must be an http:// or https:// URL, not ${JSON.stringify(values.rpc)}`);
    return values.rpc;
  } catch (err) {
    return err as Error;
  }
}
