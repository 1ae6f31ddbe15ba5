// Reconcile's judgment from the chain (docs/market.md "Operator runbook"): every payment the escrow key made, held
// against the obligations of the database. A payment is explained by the obligation whose stored hash it is, or
// whose id's hash memo it carries (obligations.ts); any other is named, and so is an obligation paid by two. The
// escrow's transactions come from the chain twice over: those the watcher read and stored with its cursor
// (`market_escrow_transactions`), and, read here without storing, every transaction from that cursor to the head —
// so a database restored from before a payout, whose watcher has not read the chain again yet, is caught too.
import { asc, eq } from "drizzle-orm";
import { type AccountPaymentsSource, readPaymentsPage } from "../chain/account-payments.ts";
import type { OwnMove, OwnTransaction } from "../chain/account-transactions.ts";
import { marketEscrowTransactions, marketPayouts, paymentCursors } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { payoutMemoHex } from "./obligations.ts";
import { ESCROW_CURSOR } from "./status.ts";

export interface UnexplainedPayment {
  readonly txHash: string;
  readonly ledger: number;
  readonly memoType: string;
  readonly memo: string | null;
  readonly moves: readonly OwnMove[];
}

export interface ChainAudit {
  /** The escrow's transactions on chain that moved money, up to `throughLedger`. */
  readonly payments: number;
  readonly throughLedger: number | null;
  /** Payments of the escrow key that no obligation of the database explains. */
  readonly unexplained: readonly UnexplainedPayment[];
  /** Obligations paid by more than one transaction on chain. */
  readonly paidTwice: readonly { readonly obligation: string; readonly txHashes: readonly string[] }[];
}

type Own = Pick<OwnTransaction, "txHash" | "ledger" | "toid" | "successful" | "memo" | "moves"> & {
  readonly memoType: string;
};

/** A transaction that sent something: a payment, an account created or merged, a path payment, a contract call. */
const movesMoney = (t: Own) =>
  t.successful && t.moves.some((m) => m.destination !== null || m.asset === null);

/** Every transaction of the escrow key from the watcher's cursor to the chain head, read and not stored. */
async function unreadTransactions(
  source: AccountPaymentsSource,
  from: { cursor: string | null; startLedger: number },
): Promise<{ own: OwnTransaction[]; throughLedger: number }> {
  const own: OwnTransaction[] = [];
  let at = from;
  for (;;) {
    const page = await readPaymentsPage(source, at);
    own.push(...page.own);
    if (page.atHead) return { own, throughLedger: page.latestLedger };
    at = { cursor: page.cursor, startLedger: at.startLedger };
  }
}

/**
 * Holds the escrow's payments on chain against the obligations. Reads the chain before the obligations: a payout
 * is written as an obligation before it is sent, so one seen on chain is always found among them, whatever the
 * watcher does meanwhile.
 */
export async function auditChain(db: Db, source: AccountPaymentsSource): Promise<ChainAudit> {
  const [cursor] = await db.select().from(paymentCursors).where(eq(paymentCursors.name, ESCROW_CURSOR));
  if (cursor === undefined) return { payments: 0, throughLedger: null, unexplained: [], paidTwice: [] };
  // The stored rows after the cursor: they cover the chain at least up to it.
  const stored: Own[] = await db
    .select()
    .from(marketEscrowTransactions)
    .orderBy(asc(marketEscrowTransactions.toid));
  const unread = await unreadTransactions({ ...source, own: true }, cursor);
  const byHash = new Map<string, Own>();
  for (const t of [...stored, ...unread.own]) byHash.set(t.txHash, t);
  const payouts = await db.select({ id: marketPayouts.id, txHash: marketPayouts.txHash }).from(marketPayouts);
  const byTx = new Map(payouts.flatMap((p) => (p.txHash === null ? [] : [[p.txHash, p.id] as const])));
  const byMemo = new Map(payouts.map((p) => [payoutMemoHex(p.id), p.id]));
  const unexplained: UnexplainedPayment[] = [];
  const paidBy = new Map<string, string[]>();
  const payments = [...byHash.values()].filter(movesMoney).sort((a, b) => a.toid.localeCompare(b.toid));
  for (const t of payments) {
    const obligation =
      byTx.get(t.txHash) ?? (t.memoType === "hash" && t.memo !== null ? byMemo.get(t.memo) : undefined);
    if (obligation === undefined) {
      unexplained.push({
        txHash: t.txHash,
        ledger: t.ledger,
        memoType: t.memoType,
        memo: t.memo,
        moves: t.moves,
      });
      continue;
    }
    paidBy.set(obligation, [...(paidBy.get(obligation) ?? []), t.txHash]);
  }
  const paidTwice = [...paidBy.entries()]
    .filter(([, hashes]) => hashes.length > 1)
    .map(([obligation, txHashes]) => ({ obligation, txHashes }));
  return { payments: payments.length, throughLedger: unread.throughLedger, unexplained, paidTwice };
}
