// `namereg backfill --rpc <url> [--from L] [--to L]`: fills recorded retention gaps from an RPC with deeper
// retention (indexer/backfill.ts). Runs next to a live indexer; exits 1 while any gap remains.
import { ContractReader } from "../chain/contract-reader.ts";
import { RpcClient } from "../chain/rpc-client.ts";
import { backfill } from "../indexer/backfill.ts";
import { openRuntime } from "./commands.ts";

export const BACKFILL_USAGE = `usage: namereg backfill --rpc <url> [--from <ledger>] [--to <ledger>]

  Fills the recorded coverage gaps (or their part inside --from..--to) from an RPC that still holds those ledgers.
  Uses DATABASE_URL, REGISTRY_ID and NETWORK_PASSPHRASE like the indexer.`;

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}

function ledgerOption(args: readonly string[], name: string): number | undefined | null {
  const raw = option(args, name);
  if (raw === undefined) return undefined;
  return /^\d+$/.test(raw) && Number(raw) >= 1 ? Number(raw) : null;
}

export async function backfillCommand(args: readonly string[]): Promise<void> {
  const rpcUrl = option(args, "--rpc");
  const from = ledgerOption(args, "--from");
  const to = ledgerOption(args, "--to");
  if (rpcUrl === undefined || !/^https?:\/\//.test(rpcUrl) || from === null || to === null) {
    console.error(BACKFILL_USAGE);
    process.exitCode = 1;
    return;
  }
  const rt = await openRuntime("migrate", { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" });
  try {
    const { networkPassphrase } = rt.config.chain;
    const registryId = rt.config.chain.contracts.registry.id;
    if (networkPassphrase === null || registryId === null) {
      throw new Error("backfill needs NETWORK_PASSPHRASE and REGISTRY_ID (the indexer's configuration)");
    }
    const result = await backfill({
      db: rt.database.db,
      rpc: new RpcClient(rpcUrl),
      reader: new ContractReader(rpcUrl, networkPassphrase),
      registryId,
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      log: (line) => console.log(line),
    });
    if (result.reports.length === 0) console.log("no recorded gap in the requested range");
    console.log(`${result.remaining} gap(s) remain`);
    if (result.remaining > 0) process.exitCode = 1;
  } finally {
    await rt.database.close();
  }
}
