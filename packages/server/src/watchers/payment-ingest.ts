// The account-payment ingest both watchers (escrow, billing) run over chain/account-payments.ts: each consumer
// names its own cursor row (`payment_cursors`) and stores the payments it takes in the same database transaction
// that advances the cursor, so a crash neither loses nor repeats a payment.
import { eq } from "drizzle-orm";
import {
  type AccountPayment,
  type AccountPaymentsSource,
  readPaymentsPage,
} from "../chain/account-payments.ts";
import type { OwnTransaction } from "../chain/account-transactions.ts";
import { chainIdentity, paymentCursors } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import {
  ChainBehindCursorError,
  ChainRefusedError,
  clearCursorGap,
  RetentionGapError,
  recordCursorGap,
  retentionRangeOf,
} from "./retention-gap.ts";

export interface StoredCursor {
  readonly cursor: string | null;
  readonly startLedger: number;
  readonly polledAt: Date | null;
  /** First ledger of a recorded retention gap (watchers/retention-gap.ts); null without one. */
  readonly gapFromLedger?: number | null;
}

/** The consumer's cursor; created at `startLedger` on first use. */
export async function loadPaymentCursor(
  db: Db,
  name: string,
  account: string,
  startLedger: () => Promise<number>,
): Promise<StoredCursor> {
  const [row] = await db.select().from(paymentCursors).where(eq(paymentCursors.name, name));
  if (row !== undefined) {
    if (row.account !== account) {
      throw new Error(`payment cursor ${name} follows ${row.account}, not ${account}; reset it deliberately`);
    }
    return row;
  }
  const start = await startLedger();
  await db
    .insert(paymentCursors)
    .values({ name, account, cursor: null, startLedger: start })
    .onConflictDoNothing();
  return loadPaymentCursor(db, name, account, startLedger);
}

/** Advances the cursor; call inside the transaction that stores the page's payments. */
export async function savePaymentCursor(db: Db, name: string, cursor: string, polledAt: Date): Promise<void> {
  await db.update(paymentCursors).set({ cursor, polledAt }).where(eq(paymentCursors.name, name));
}

/** Marks a completed poll that found nothing new (the status's cursor age counts empty polls). */
export async function touchPaymentCursor(db: Db, name: string, polledAt: Date): Promise<void> {
  await db.update(paymentCursors).set({ polledAt }).where(eq(paymentCursors.name, name));
}

export interface IngestOptions {
  readonly db: Db;
  /** The consumer's cursor row. */
  readonly cursorName: string;
  readonly source: AccountPaymentsSource;
  /** First ledger on the very first run. */
  readonly startLedger: () => Promise<number>;
  readonly now: () => Date;
  /** Most getTransactions pages per call, so one pass stays short while catching up. */
  readonly maxPages?: number;
  /** Stores a page's payments inside the transaction that advances the cursor (idempotently: keyed by id). */
  readonly store: (tx: Db, payments: readonly AccountPayment[]) => Promise<void>;
  /**
   * Stores the account's own transactions of a page (what it sent) in the same transaction, idempotently (keyed
   * by hash); a consumer whose account sends nothing leaves it out.
   */
  readonly storeOwn?: (tx: Db, own: readonly OwnTransaction[]) => Promise<void>;
  /** The watcher, in messages ("escrow watcher"). */
  readonly what: string;
  /** What an operator runs when the cursor falls out of the RPC's retention (the catch-up command). */
  readonly recovery: string;
  /** Catch-up: stop once the cursor is past this ledger, and leave a recorded gap for the caller to clear. */
  readonly untilLedger?: number;
}

export interface IngestResult {
  /** How many payments were read. */
  readonly count: number;
  /** Every payment to the account up to this ledger has been stored (by this call or earlier ones). */
  readonly throughLedger: number;
  /** The last page read reached the chain head: nothing more to read now. */
  readonly atHead: boolean;
}

/** The ledger of a getTransactions cursor (a TOID: the ledger sequence in its high 32 bits). */
export function cursorLedger(cursor: string): number {
  return Number(BigInt(cursor) >> 32n);
}

/**
 * Reads the account's new payments page by page: each page's payments and the cursor past them commit together,
 * so a consumer killed anywhere neither loses a payment nor, storing by id, keeps one twice. Returns how many
 * payments were read and how far the account's payments are known; an empty poll still counts as a poll
 * (polledAt).
 */
export async function ingestPayments(o: IngestOptions): Promise<IngestResult> {
  // The indexer found the RPC on another chain than the mirror's (indexer/chain-identity.ts): judge nothing from it.
  const [identity] = await o.db.select({ refused: chainIdentity.refusedReason }).from(chainIdentity);
  if (identity?.refused != null) throw new ChainRefusedError(o.what, identity.refused);
  let stored = await loadPaymentCursor(o.db, o.cursorName, o.source.account, o.startLedger);
  let count = 0;
  let through = stored.cursor === null ? stored.startLedger - 1 : cursorLedger(stored.cursor) - 1;
  for (let page = 0; page < (o.maxPages ?? 50); page++) {
    const read = await readPage(o, stored);
    const polledAt = o.now();
    const clearGap = stored.gapFromLedger != null && o.untilLedger === undefined;
    await o.db.transaction(async (tx) => {
      if (read.payments.length > 0) await o.store(tx, read.payments);
      if (read.own.length > 0 && o.storeOwn !== undefined) await o.storeOwn(tx, read.own);
      await savePaymentCursor(tx, o.cursorName, read.cursor, polledAt);
      if (clearGap) await clearCursorGap(tx, o.cursorName);
    });
    count += read.payments.length;
    stored = { ...stored, cursor: read.cursor, gapFromLedger: clearGap ? null : stored.gapFromLedger };
    if (read.atHead) return { count, throughLedger: read.latestLedger, atHead: true };
    through = cursorLedger(read.cursor) - 1;
    if (o.untilLedger !== undefined && through >= o.untilLedger)
      return { count, throughLedger: through, atHead: false };
  }
  await touchPaymentCursor(o.db, o.cursorName, o.now());
  // Stopped mid-backlog: the cursor's own ledger may hold transactions not read yet.
  return { count, throughLedger: through, atHead: false };
}

/**
 * One page from the cursor. A start the RPC no longer holds is recorded as the cursor's gap and reported as a
 * RetentionGapError (never skipped: money in it would go unjudged); a start past the RPC's head means another or
 * a reset chain.
 */
async function readPage(o: IngestOptions, stored: StoredCursor) {
  try {
    return await readPaymentsPage(o.source, stored);
  } catch (err) {
    const range = retentionRangeOf(err);
    if (range === null) throw err;
    const at = stored.cursor === null ? stored.startLedger : cursorLedger(stored.cursor);
    if (at > range.latest) throw new ChainBehindCursorError(o.what, at, range.latest);
    if (at >= range.oldest) throw err;
    const recorded = await recordCursorGap(
      o.db,
      o.cursorName,
      { fromLedger: at, toLedger: range.oldest - 1 },
      o.now(),
    );
    throw new RetentionGapError(o.what, recorded.gap, recorded.firstSeen, o.recovery);
  }
}
