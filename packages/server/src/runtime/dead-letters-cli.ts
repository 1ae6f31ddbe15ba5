// `namereg dead-letters list [--all] | retry <event id> | resolve <event id> --reason "…"`: the events the
// indexer archived but could not project (an undecodable event, a projection rule that refused it), for an
// operator. Retrying projects the archived event again with the current code, holding the indexer's writer lock
// so it never races a running indexer; resolving records the operator's reason. /v1/status counts the unresolved.
import { and, asc, eq, isNull } from "drizzle-orm";
import { ContractReader } from "../chain/contract-reader.ts";
import { RpcClient } from "../chain/rpc-client.ts";
import { advisoryLockKey } from "../db/index.ts";
import { deadLetters } from "../db/tables.ts";
import { takeWriterEpoch } from "../db/writer-fence.ts";
import { Indexer } from "../indexer/indexer.ts";
import { openRuntime } from "../process/runtime.ts";
import { coreContracts, INDEXER_LOCK } from "./indexer-process.ts";

export const DEAD_LETTERS_USAGE = `usage: namereg dead-letters <command>

  list [--all]                      unresolved dead letters (--all: resolved ones too, with how)
  retry <event id>                  project the archived event again with the current code (needs the indexer's
                                    writer lock: stop \`namereg index\` first; RPC_URL for chain re-reads)
  resolve <event id> --reason "…"   mark it resolved by hand, recording why`;

class DeadLetterError extends Error {}

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}

export async function deadLettersCommand(args: readonly string[]): Promise<void> {
  const [sub, id] = args;
  if (sub !== "list" && sub !== "retry" && sub !== "resolve") {
    console.error(DEAD_LETTERS_USAGE);
    process.exitCode = 1;
    return;
  }
  const rt = await openRuntime("migrate", { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" });
  const db = rt.database.db;
  try {
    if (sub === "list") {
      const all = args.includes("--all");
      const rows = await db
        .select()
        .from(deadLetters)
        .where(all ? undefined : isNull(deadLetters.resolvedAt))
        .orderBy(asc(deadLetters.ledger), asc(deadLetters.eventId));
      if (rows.length === 0) console.log(all ? "no dead letters" : "no unresolved dead letters");
      for (const r of rows) {
        const state =
          r.resolvedAt === null
            ? "unresolved"
            : `resolved ${r.resolvedAt.toISOString()}: ${r.resolution ?? ""}`;
        console.log(
          `${r.eventId}  ledger ${r.ledger}  ${r.contractId}  since ${r.createdAt.toISOString()}  ${state}  — ${r.error}`,
        );
      }
      return;
    }
    if (id === undefined || id.startsWith("--"))
      throw new DeadLetterError(`which event id?\n\n${DEAD_LETTERS_USAGE}`);
    if (sub === "resolve") {
      const reason = option(args, "--reason")?.trim() ?? "";
      if (reason === "") throw new DeadLetterError('say why: --reason "…" is required');
      // Only an unresolved letter: a resolution already recorded (a retry's or an operator's) is history.
      const done = await db
        .update(deadLetters)
        .set({ resolvedAt: new Date(), resolution: `by operator: ${reason}` })
        .where(and(eq(deadLetters.eventId, id), isNull(deadLetters.resolvedAt)))
        .returning({ resolvedAt: deadLetters.resolvedAt });
      if (done.length === 0) {
        const [known] = await db
          .select({ resolution: deadLetters.resolution })
          .from(deadLetters)
          .where(eq(deadLetters.eventId, id));
        throw new DeadLetterError(
          known === undefined
            ? `no dead letter ${id}`
            : `${id} is resolved already (${known.resolution ?? ""})`,
        );
      }
      console.log(`${id} resolved by hand`);
      return;
    }
    await retry(rt, id);
  } catch (err) {
    if (!(err instanceof DeadLetterError)) throw err;
    console.error(`namereg dead-letters: ${err.message}`);
    process.exitCode = 1;
  } finally {
    await rt.database.close();
  }
}

async function retry(rt: Awaited<ReturnType<typeof openRuntime>>, id: string): Promise<void> {
  const { config, database } = rt;
  const { rpcUrl, networkPassphrase } = config.chain;
  const registryId = config.chain.contracts.registry.id;
  if (rpcUrl === null || networkPassphrase === null || registryId === null) {
    throw new DeadLetterError("retry needs RPC_URL, NETWORK_PASSPHRASE and REGISTRY_ID, as the indexer does");
  }
  const lock = await database.tryAdvisoryLock(advisoryLockKey(INDEXER_LOCK));
  if (lock === null) {
    throw new DeadLetterError(
      "an indexer holds the writer lock; stop `namereg index` (or `namereg start`) for the retry, then start it again",
    );
  }
  try {
    const epoch = await takeWriterEpoch(database.db);
    const rpc = new RpcClient(rpcUrl);
    const indexer = new Indexer({
      db: database.db,
      rpc,
      reader: new ContractReader(rpcUrl, networkPassphrase),
      core: await coreContracts(config, rpc),
      registryId,
      epoch,
    });
    await indexer.init();
    const result = await indexer.retryDeadLetter(id).catch((err: unknown) => {
      throw new DeadLetterError(err instanceof Error ? err.message : String(err));
    });
    if (result.resolved) console.log(`${id} projected and resolved`);
    else {
      console.log(`${id} failed again: ${result.error ?? "unknown error"}`);
      process.exitCode = 1;
    }
  } finally {
    await lock.release().catch(() => undefined);
  }
}
