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
import { paymentCursors } from "../db/tables.ts";
import type { Db } from "../db/types.ts";

export interface StoredCursor {
  readonly cursor: string | null;
  readonly startLedger: number;
  readonly polledAt: Date | null;
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
function cursorLedger(cursor: string): number {
  return Number(BigInt(cursor) >> 32n);
}

/**
 * Reads the account's new payments page by page: each page's payments and the cursor past them commit together,
 * so a consumer killed anywhere neither loses a payment nor, storing by id, keeps one twice. Returns how many
 * payments were read and how far the account's payments are known; an empty poll still counts as a poll
 * (polledAt).
 */
export async function ingestPayments(o: IngestOptions): Promise<IngestResult> {
  let stored = await loadPaymentCursor(o.db, o.cursorName, o.source.account, o.startLedger);
  let count = 0;
  let through = stored.cursor === null ? stored.startLedger - 1 : cursorLedger(stored.cursor) - 1;
  for (let page = 0; page < (o.maxPages ?? 50); page++) {
    const read = await readPaymentsPage(o.source, stored);
    const polledAt = o.now();
    await o.db.transaction(async (tx) => {
      if (read.payments.length > 0) await o.store(tx, read.payments);
      if (read.own.length > 0 && o.storeOwn !== undefined) await o.storeOwn(tx, read.own);
      await savePaymentCursor(tx, o.cursorName, read.cursor, polledAt);
    });
    count += read.payments.length;
    stored = { ...stored, cursor: read.cursor };
    if (read.atHead) return { count, throughLedger: read.latestLedger, atHead: true };
    through = cursorLedger(read.cursor) - 1;
  }
  await touchPaymentCursor(o.db, o.cursorName, o.now());
  // Stopped mid-backlog: the cursor's own ledger may hold transactions not read yet.
  return { count, throughLedger: through, atHead: false };
}
