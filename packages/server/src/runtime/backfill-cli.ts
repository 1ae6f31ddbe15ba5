// `namereg backfill --rpc <url> [--from L] [--to L]`: fills recorded retention gaps from an RPC with deeper
// retention (indexer/backfill.ts). Runs next to a live indexer; exits 1 while any gap remains.
import { parseArgs } from "node:util";
import { ContractReader } from "../chain/contract-reader.ts";
import { RpcClient } from "../chain/rpc-client.ts";
import { backfill } from "../indexer/backfill.ts";
import { openRuntime } from "../process/runtime.ts";

export const BACKFILL_USAGE = `usage: namereg backfill --rpc <url> [--from <ledger>] [--to <ledger>]

  Fills the recorded coverage gaps (or their part inside --from..--to) from an RPC that still holds those ledgers.
  Uses DATABASE_URL, REGISTRY_ID and NETWORK_PASSPHRASE like the indexer.`;

interface BackfillArgs {
  readonly rpcUrl: string;
  readonly from: number | undefined;
  readonly to: number | undefined;
}

/** The arguments, or what is wrong with them (every problem, one line each). */
export function parseBackfillArgs(args: readonly string[]): BackfillArgs | { problems: string[] } {
  let values: { rpc?: string | undefined; from?: string | undefined; to?: string | undefined };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { rpc: { type: "string" }, from: { type: "string" }, to: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return { problems: [(err as Error).message] };
  }
  const problems: string[] = [];
  const ledger = (name: "from" | "to"): number | undefined => {
    const raw = values[name];
    if (raw === undefined) return undefined;
    if (/^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 0xffff_ffff) return Number(raw);
    problems.push(`--${name} must be a ledger number (1 or more), not ${JSON.stringify(raw)}`);
    return undefined;
  };
  const from = ledger("from");
  const to = ledger("to");
  if (values.rpc === undefined)
    problems.push("--rpc <url> is required: the RPC that still holds the gap's ledgers");
  else if (!/^https?:\/\/[^/\s]+/.test(values.rpc))
    problems.push(`--rpc must be an http:// or https:// URL, not ${JSON.stringify(values.rpc)}`);
  if (from !== undefined && to !== undefined && from > to)
    problems.push(`--from ${from} is after --to ${to}`);
  return problems.length > 0 ? { problems } : { rpcUrl: values.rpc as string, from, to };
}

export async function backfillCommand(args: readonly string[]): Promise<void> {
  const parsed = parseBackfillArgs(args);
  if ("problems" in parsed) {
    console.error(`${parsed.problems.map((p) => `namereg backfill: ${p}`).join("\n")}\n\n${BACKFILL_USAGE}`);
    process.exitCode = 1;
    return;
  }
  const { rpcUrl, from, to } = parsed;
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
