// Where the watcher asks the chain whether an obligation was already paid, before it signs an envelope for it. The
// database cannot answer alone: restored from a dump taken before a payout, it holds the obligation as unpaid (or
// not at all, until the payment that caused it is read again). The chain can: every payout carries the hash memo
// of its obligation id (obligations.ts), and every transaction the escrow key signed is stored as the watcher reads
// it (`market_escrow_transactions`, with the cursor that read it: a restore rewinds both together, and the watcher
// reads the lost range from the chain again). The rule that makes the look-up sufficient (docs/market.md
// "Guarantees"): the escrow account's sequence number is read first, with the ledger it was read at, and the look-up
// is made only once the stored transactions reach that ledger. Every transaction the escrow key got applied with a
// sequence number up to the one read is then in the table; the new envelope takes the next number, so any envelope
// signed before and not yet applied (sent just before a crash or a restore, still queued) has that same number or a
// used one, and at most one of them can ever apply.
import { Keypair, type rpc, xdr } from "@stellar/stellar-sdk";
import { and, desc, eq, inArray } from "drizzle-orm";
import { marketEscrowTransactions } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { PURPOSES, type Purpose, payoutMemoHex } from "./obligations.ts";

export interface EscrowSequence {
  /** The account's current sequence number (decimal). */
  readonly sequence: string;
  /** The ledger the RPC read it at. */
  readonly ledger: number;
}

/** The escrow account's sequence number and the ledger it was read at (getLedgerEntries says both). */
export async function escrowSequence(server: rpc.Server, account: string): Promise<EscrowSequence> {
  const key = xdr.LedgerKey.account(
    new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(account).xdrPublicKey() }),
  );
  const got = await server.getLedgerEntries(key);
  const entry = got.entries[0];
  if (entry === undefined || entry.val.type !== "account")
    throw new Error(`the escrow account ${account} does not exist on chain`);
  return { sequence: entry.val.account.seqNum.toString(), ledger: got.latestLedger };
}

export type EscrowTransaction = typeof marketEscrowTransactions.$inferSelect;

/**
 * The escrow's transaction carrying this obligation's memo: a successful one if there is any (it paid the
 * obligation), else the latest failed one (it paid nothing but its fee), else null.
 */
export async function payoutOnChain(db: Db, obligationId: string): Promise<EscrowTransaction | null> {
  const rows = await db
    .select()
    .from(marketEscrowTransactions)
    .where(
      and(
        eq(marketEscrowTransactions.memoType, "hash"),
        eq(marketEscrowTransactions.memo, payoutMemoHex(obligationId)),
      ),
    )
    .orderBy(desc(marketEscrowTransactions.successful), desc(marketEscrowTransactions.toid));
  return rows[0] ?? null;
}

/** How the transaction found differs from what the obligation asks (destination, amount), or null when it does not. */
export function payoutMismatch(
  found: EscrowTransaction,
  owed: { destination: string; amount: bigint },
): string | null {
  const moves = found.moves.filter((m) => m.asset === "native" && m.amount !== null);
  const [only] = moves;
  if (moves.length === 1 && only?.destination === owed.destination && only.amount === owed.amount.toString())
    return null;
  const sent = moves.map((m) => `${m.amount} stroops → ${m.destination}`).join(", ") || "no XLM";
  return `the chain's payout ${found.txHash} sent ${sent}, the obligation asks ${owed.amount} stroops → ${owed.destination}`;
}

/**
 * What a payment's whole amount ends as: at most one of these is ever paid per payment (a surplus goes with a
 * funded deposit, never with a bounce).
 */
const PRINCIPAL: readonly Purpose[] = ["bounce", "refund", "seller", "slash", "bond_return"];

function excludes(a: Purpose, b: Purpose): boolean {
  if (a === b) return false;
  if (PRINCIPAL.includes(a) && PRINCIPAL.includes(b)) return true;
  return (a === "surplus" && b === "bounce") || (a === "bounce" && b === "surplus");
}

/**
 * A payout on chain for the same payment that this obligation excludes (its deposit paid to the seller, and now a
 * bounce of it owed): the database judged the payment otherwise than when that payout was made — restored from
 * before a listing or an intent it no longer holds. Null when there is none.
 */
export async function conflictingPayout(
  db: Db,
  payout: { paymentId: string; purpose: string },
): Promise<{ obligation: string; tx: EscrowTransaction } | null> {
  const purpose = payout.purpose as Purpose;
  if (!PURPOSES.includes(purpose)) return null;
  const others = PURPOSES.filter((p) => excludes(purpose, p)).map((p) => `${payout.paymentId}:${p}`);
  const byMemo = new Map(others.map((id) => [payoutMemoHex(id), id]));
  if (byMemo.size === 0) return null;
  const [found] = await db
    .select()
    .from(marketEscrowTransactions)
    .where(
      and(
        eq(marketEscrowTransactions.memoType, "hash"),
        eq(marketEscrowTransactions.successful, true),
        inArray(marketEscrowTransactions.memo, [...byMemo.keys()]),
      ),
    )
    .limit(1);
  const obligation = found?.memo == null ? undefined : byMemo.get(found.memo);
  return found === undefined || obligation === undefined ? null : { obligation, tx: found };
}
