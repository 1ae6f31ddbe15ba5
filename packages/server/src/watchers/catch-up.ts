// `namereg escrow catch-up` / `namereg billing catch-up --rpc <url>`: reads a watcher's recorded retention gap
// (retention-gap.ts) through an RPC that still holds it (an archive RPC), as `namereg backfill` does for the
// indexer. It stores the payments exactly as the watcher would (the same store, keyed by id, with the cursor, page
// by page), so it is safe beside a running watcher, which judges nothing while the gap is open and carries on
// from the cursor once it is past the gap. Running it again does nothing.

import { eq } from "drizzle-orm";
import type { AccountPaymentsSource } from "../chain/account-payments.ts";
import { paymentCursors } from "../db/tables.ts";
import { cursorLedger, type IngestOptions, ingestPayments } from "./payment-ingest.ts";
import { type CursorGap, clearCursorGap, cursorGapOf } from "./retention-gap.ts";

export type CatchUpResult =
  | { readonly kind: "no-gap" }
  | { readonly kind: "refused"; readonly gap: CursorGap; readonly reason: string }
  | {
      readonly kind: "filled";
      readonly gap: CursorGap;
      readonly payments: number;
      readonly throughLedger: number;
    };

export async function catchUpPayments(
  o: Pick<IngestOptions, "db" | "cursorName" | "now" | "store" | "storeOwn" | "what"> & {
    /** The archive RPC's source (the watcher's account on it). */
    readonly source: AccountPaymentsSource;
  },
): Promise<CatchUpResult> {
  const gap = await cursorGapOf(o.db, o.cursorName);
  if (gap === null) return { kind: "no-gap" };
  const health = await o.source.server.getHealth();
  if (health.oldestLedger > gap.fromLedger)
    return {
      kind: "refused",
      gap,
      reason: `this RPC's oldest ledger is ${health.oldestLedger}, after the gap's first ledger ${gap.fromLedger}`,
    };
  if (health.latestLedger < gap.toLedger)
    return {
      kind: "refused",
      gap,
      reason: `this RPC's latest ledger is ${health.latestLedger}, before the gap's last ledger ${gap.toLedger}`,
    };
  let payments = 0;
  let through = gap.fromLedger - 1;
  while (through < gap.toLedger) {
    const step = await ingestPayments({
      ...o,
      startLedger: async () => gap.fromLedger,
      maxPages: 50,
      untilLedger: gap.toLedger,
      recovery: "point --rpc at an RPC that holds these ledgers",
    });
    payments += step.count;
    through = step.throughLedger;
  }
  // Every transaction up to the gap's end is read. A cursor still inside the gap (nothing happened on the chain
  // after its last transaction) would fall out of retention again: it moves to the start of the next ledger, the
  // first the watcher's own RPC holds (a TOID before that ledger's first transaction).
  await o.db.transaction(async (tx) => {
    const [row] = await tx.select().from(paymentCursors).where(eq(paymentCursors.name, o.cursorName));
    if (row?.cursor == null || cursorLedger(row.cursor) <= gap.toLedger)
      await tx
        .update(paymentCursors)
        .set({ cursor: String(BigInt(gap.toLedger + 1) << 32n) })
        .where(eq(paymentCursors.name, o.cursorName));
    await clearCursorGap(tx, o.cursorName);
  });
  return { kind: "filled", gap, payments, throughLedger: Math.max(through, gap.toLedger) };
}

/** One line for the operator; exit 1 unless the gap is filled (or there was none). */
export function describeCatchUp(what: string, r: CatchUpResult): { line: string; ok: boolean } {
  switch (r.kind) {
    case "no-gap":
      return { line: `the ${what}'s cursor has no gap: nothing to do`, ok: true };
    case "refused":
      return {
        line: `not filled: ledgers ${r.gap.fromLedger}–${r.gap.toLedger}: ${r.reason}`,
        ok: false,
      };
    case "filled":
      return {
        line: `filled ledgers ${r.gap.fromLedger}–${r.gap.toLedger}: ${r.payments} payment(s) read; the ${what} carries on from ledger ${r.throughLedger + 1}`,
        ok: true,
      };
  }
}
