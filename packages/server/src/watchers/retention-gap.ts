// A watcher whose cursor fell out of the RPC's retention (docs/operations.md "A watcher past the RPC's
// retention"). getTransactions refuses a start before the RPC's oldest ledger; the payments in between are not
// lost on chain, only on this RPC. A money watcher must not skip them (a deposit judged after the acceptance that
// followed it is bounced, say), so it records the gap on its cursor row, judges nothing more, and says what to
// run: `catch-up --rpc <archive RPC>` reads the range through an RPC that still holds it (catch-up.ts). The gap is
// cleared by the first page read from the cursor again, whichever RPC served it.
import { eq } from "drizzle-orm";
import { paymentCursors } from "../db/tables.ts";
import type { Db } from "../db/types.ts";

/** The range getTransactions answered a start outside of (stellar-rpc's -32600 wording, as the devnet's). */
export function retentionRangeOf(err: unknown): { oldest: number; latest: number } | null {
  if (typeof err !== "object" || err === null) return null;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (code !== -32600 || typeof message !== "string") return null;
  const m = /oldest ledger:? (\d+) and the latest ledger:? (\d+)/.exec(message);
  return m === null ? null : { oldest: Number(m[1]), latest: Number(m[2]) };
}

export interface CursorGap {
  readonly fromLedger: number;
  readonly toLedger: number;
  readonly since: Date;
}

/** The cursor needs ledgers `fromLedger`–`toLedger`, which the RPC no longer serves. */
export class RetentionGapError extends Error {
  readonly gap: CursorGap;
  readonly firstSeen: boolean;
  constructor(what: string, gap: CursorGap, firstSeen: boolean, recovery: string) {
    super(
      `the ${what}'s cursor needs ledgers ${gap.fromLedger}–${gap.toLedger}, which the RPC no longer holds ` +
        `(its retention starts at ${gap.toLedger + 1}); nothing is judged until they are read: ${recovery}`,
    );
    this.name = "RetentionGapError";
    this.gap = gap;
    this.firstSeen = firstSeen;
  }
}

/** The RPC's chain ends before the cursor: another or a reset chain, never something to wait out quietly. */
export class ChainBehindCursorError extends Error {
  constructor(what: string, cursorLedger: number, latest: number) {
    super(
      `the RPC's latest ledger ${latest} is before the ${what}'s cursor (ledger ${cursorLedger}): the RPC ` +
        'serves another chain, or the chain was reset; see docs/operations.md "A different or reset chain"',
    );
    this.name = "ChainBehindCursorError";
  }
}

/** The indexer refuses the chain the RPC serves (indexer/chain-identity.ts); the watchers stop with it. */
export class ChainRefusedError extends Error {
  constructor(what: string, reason: string) {
    super(
      `the ${what} judges nothing: ${reason} (see /v1/status and docs/operations.md "A different or reset chain")`,
    );
    this.name = "ChainRefusedError";
  }
}

/** Records (or widens) the cursor's gap; returns it and whether it is new. */
export async function recordCursorGap(
  db: Db,
  name: string,
  range: { fromLedger: number; toLedger: number },
  now: Date,
): Promise<{ gap: CursorGap; firstSeen: boolean }> {
  const [row] = await db.select().from(paymentCursors).where(eq(paymentCursors.name, name));
  if (row?.gapFromLedger != null && row.gapToLedger != null && row.gapSince !== null) {
    const toLedger = Math.max(row.gapToLedger, range.toLedger);
    if (toLedger !== row.gapToLedger)
      await db.update(paymentCursors).set({ gapToLedger: toLedger }).where(eq(paymentCursors.name, name));
    return { gap: { fromLedger: row.gapFromLedger, toLedger, since: row.gapSince }, firstSeen: false };
  }
  await db
    .update(paymentCursors)
    .set({ gapFromLedger: range.fromLedger, gapToLedger: range.toLedger, gapSince: now })
    .where(eq(paymentCursors.name, name));
  return { gap: { ...range, since: now }, firstSeen: true };
}

/** Inside the transaction that saves a page read from the cursor: the range is no longer missing. */
export async function clearCursorGap(db: Db, name: string): Promise<void> {
  await db
    .update(paymentCursors)
    .set({ gapFromLedger: null, gapToLedger: null, gapSince: null })
    .where(eq(paymentCursors.name, name));
}

/** The cursor's recorded gap, for its status component; null without one. */
export async function cursorGapOf(db: Db, name: string): Promise<CursorGap | null> {
  const [row] = await db
    .select({
      from: paymentCursors.gapFromLedger,
      to: paymentCursors.gapToLedger,
      since: paymentCursors.gapSince,
    })
    .from(paymentCursors)
    .where(eq(paymentCursors.name, name));
  if (row?.from == null || row.to == null || row.since === null) return null;
  return { fromLedger: row.from, toLedger: row.to, since: row.since };
}
