// What the escrow watcher knows of the registry: only what the indexer has written to the database (the archived
// registry events; its processed ledger is watchers/indexer-progress.ts), never a live guess. A verdict that
// depends on registry state waits until the indexer has processed the ledgers it depends on.
import { decodeEventXdr } from "@namereg/protocol";
import { and, asc, eq, gt, inArray, lt } from "drizzle-orm";
import { events } from "../db/tables.ts";
import type { Db } from "../db/types.ts";

interface EventBase {
  readonly id: string;
  readonly ledger: number;
  readonly txHash: string;
  /** Close time of the event's ledger (unix seconds); null when the archive does not know it. */
  readonly at: bigint | null;
}

export type TransferEvent =
  | (EventBase & { readonly type: "prop_tr"; readonly to: string; readonly expires: bigint })
  | (EventBase & { readonly type: "acc_tr"; readonly from: string; readonly to: string })
  | (EventBase & { readonly type: "canc_tr" });

const TRANSFER_TYPES = ["prop_tr", "acc_tr", "canc_tr"];

/** Namespace-transfer events of `node`, in chain order, strictly after `afterId` and/or before `beforeId`. */
export async function transferEvents(
  db: Db,
  registryId: string,
  node: string,
  range: { afterId?: string; beforeId?: string },
): Promise<TransferEvent[]> {
  const rows = await db
    .select({
      id: events.id,
      ledger: events.ledger,
      txHash: events.txHash,
      at: events.at,
      topics: events.topics,
      value: events.value,
    })
    .from(events)
    .where(
      and(
        eq(events.contractId, registryId),
        eq(events.subject, node),
        inArray(events.type, TRANSFER_TYPES),
        eq(events.inSuccessfulContractCall, true),
        range.afterId === undefined ? undefined : gt(events.id, range.afterId),
        range.beforeId === undefined ? undefined : lt(events.id, range.beforeId),
      ),
    )
    .orderBy(asc(events.id));
  const out: TransferEvent[] = [];
  for (const row of rows) {
    const event = decodeEventXdr(row.topics, row.value);
    if (event === null) continue;
    const base = {
      id: row.id,
      ledger: row.ledger,
      txHash: row.txHash,
      at: row.at === null ? null : BigInt(Math.floor(row.at.getTime() / 1000)),
    };
    if (event.type === "prop_tr")
      out.push({ ...base, type: "prop_tr", to: event.data.to, expires: event.data.expires });
    else if (event.type === "acc_tr")
      out.push({ ...base, type: "acc_tr", from: event.data.from, to: event.data.to });
    else if (event.type === "canc_tr") out.push({ ...base, type: "canc_tr" });
  }
  return out;
}

/**
 * The transfer proposal live just before `toid` (a transaction position), and whether `seller` still owned the
 * namespace then (no acceptance moved it to someone else). `closedAt` is that ledger's close time.
 */
export async function proposalBefore(
  db: Db,
  registryId: string,
  node: string,
  toid: string,
  closedAt: Date,
  seller: string,
): Promise<{ to: string; expires: bigint } | null> {
  const history = await transferEvents(db, registryId, node, { beforeId: toid });
  let proposal: { to: string; expires: bigint } | null = null;
  let owner: string | null = null;
  for (const event of history) {
    if (event.type === "prop_tr") proposal = { to: event.to, expires: event.expires };
    else if (event.type === "acc_tr") {
      proposal = null;
      owner = event.to;
    } else proposal = null;
  }
  if (owner !== null && owner !== seller) return null;
  if (proposal === null || proposal.expires <= BigInt(Math.floor(closedAt.getTime() / 1000))) return null;
  return proposal;
}
