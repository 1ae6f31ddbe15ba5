// Marketplace escrow (docs/market.md): payment cursors, listings, intents, payments, payouts and sales.
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { OwnMove } from "../../chain/account-transactions.ts";
import { tz, u64 } from "./columns.ts";

/**
 * Durable cursors of account-payment streams (watchers/payment-ingest.ts), one per consumer (the escrow watcher,
 * the billing watcher). `polledAt` is the end of the last completed poll, empty polls included.
 */
export const paymentCursors = pgTable("payment_cursors", {
  name: text("name").primaryKey(),
  account: text("account").notNull(),
  /** getTransactions cursor to continue from; null: start at `startLedger`. */
  cursor: text("cursor"),
  startLedger: integer("start_ledger").notNull(),
  polledAt: tz("polled_at"),
  /**
   * The ledgers the cursor needs that the RPC no longer holds (its retention moved past them): the watcher judges
   * nothing until they are read, from an archive RPC (`namereg <escrow|billing> catch-up --rpc`) or from this RPC
   * once it serves them again. Null while the cursor is inside the RPC's retention.
   */
  gapFromLedger: integer("gap_from_ledger"),
  gapToLedger: integer("gap_to_ledger"),
  gapSince: tz("gap_since"),
});

/** A namespace offered for sale. `pending_bond` → `active` (bond seen) → `sold` or `closed`. */
export const marketListings = pgTable(
  "market_listings",
  {
    id: text("id").primaryKey(),
    namespace: text("namespace").notNull(),
    node: text("node").notNull(),
    seller: text("seller").notNull(),
    price: u64("price").notNull(),
    feeBps: integer("fee_bps").notNull(),
    bond: u64("bond").notNull(),
    /** Hash memo (64 hex) the seller's bond payment carries. */
    bondMemo: text("bond_memo").notNull(),
    state: text("state").notNull(),
    /** The payment that posted the bond (`txHash:opIndex`), once seen; bond refunds and slashes draw on it. */
    bondPayment: text("bond_payment"),
    /** Set by the console's cancel; the watcher settles the bond (and any funded deposit) and closes the listing. */
    cancelRequestedAt: tz("cancel_requested_at"),
    /** Chain head when the cancel was requested: the watcher settles it only once the indexer has passed it. */
    cancelLedger: integer("cancel_ledger"),
    createdAt: tz("created_at").notNull().defaultNow(),
    listedAt: tz("listed_at"),
    closedAt: tz("closed_at"),
  },
  (t) => [
    uniqueIndex("market_listings_bond_memo_idx").on(t.bondMemo),
    index("market_listings_state_idx").on(t.state, t.listedAt),
    // One open listing per namespace.
    uniqueIndex("market_listings_open_idx").on(t.node).where(sql`state in ('pending_bond', 'active')`),
  ],
);

/** A buyer's deposit intent. Rotation supersedes the row and inserts a new one, so a late payment on an old memo is still recognised. */
export const marketIntents = pgTable(
  "market_intents",
  {
    id: text("id").primaryKey(),
    listingId: text("listing_id").notNull(),
    buyer: text("buyer").notNull(),
    memo: text("memo").notNull(),
    createdAt: tz("created_at").notNull(),
    expiresAt: tz("expires_at").notNull(),
    superseded: boolean("superseded").notNull().default(false),
  },
  (t) => [
    uniqueIndex("market_intents_memo_idx").on(t.memo),
    // The race guard: two concurrent mints for one (listing, buyer) cannot both insert (409 intent_conflict).
    uniqueIndex("market_intents_current_idx").on(t.listingId, t.buyer).where(sql`not superseded`),
  ],
);

/**
 * Every payment the escrow received, once (`txHash:opIndex`), with the verdict taken on it. States: `new`
 * (no verdict yet), `bond` (holds a listing's bond), `funded` (holds a deposit), `settled` (paid out to the
 * seller), `returned` (sent back in full), `released` (bond or deposit paid out by slash/refund), `float`.
 */
export const marketPayments = pgTable(
  "market_payments",
  {
    id: text("id").primaryKey(),
    ledger: integer("ledger").notNull(),
    /** TOID of the transaction (decimal), to order the payment against registry events. */
    toid: text("toid").notNull(),
    closedAt: tz("closed_at").notNull(),
    txHash: text("tx_hash").notNull(),
    operationIndex: integer("operation_index").notNull(),
    source: text("source").notNull(),
    asset: text("asset").notNull(),
    amount: u64("amount").notNull(),
    memoType: text("memo_type").notNull(),
    memo: text("memo"),
    state: text("state").notNull(),
    listingId: text("listing_id"),
    intentId: text("intent_id"),
    buyer: text("buyer"),
    /** The part of the payment held (deposit: the price; bond: the bond). */
    held: u64("held"),
    /** Live proposal expiry (unix seconds) the deposit was funded against. */
    proposalExpires: u64("proposal_expires"),
    verdict: text("verdict"),
    decidedAt: tz("decided_at"),
  },
  (t) => [
    index("market_payments_state_idx").on(t.state),
    index("market_payments_listing_idx").on(t.listingId),
    // A buyer's deposits by their intents' memos (GET /v1/market/listings/{id}/buyers/{account}, polled by the page).
    index("market_payments_memo_idx").on(t.memo),
  ],
);

/**
 * Obligations: every payout (payment to the seller, refund, surplus, bounce, slash, bond return) is a row
 * written in the same transaction as the verdict, before anything is sent. The signed envelope and its hash are
 * stored before sending; after a crash the hash is looked up on chain before the same envelope is re-sent, and a
 * second envelope is never built. States: `pending` → `signed` → `paid`; or `parked` (an operator decides) →
 * `released` (paid as the operator directed).
 */
export const marketPayouts = pgTable(
  "market_payouts",
  {
    /** `<payment id>:<purpose>`: one obligation per purpose per payment, whatever replays. */
    id: text("id").primaryKey(),
    paymentId: text("payment_id").notNull(),
    purpose: text("purpose").notNull(),
    destination: text("destination").notNull(),
    amount: u64("amount").notNull(),
    state: text("state").notNull(),
    envelope: text("envelope"),
    txHash: text("tx_hash"),
    paidLedger: integer("paid_ledger"),
    parkedReason: text("parked_reason"),
    note: text("note"),
    createdAt: tz("created_at").notNull().defaultNow(),
    updatedAt: tz("updated_at").notNull().defaultNow(),
  },
  (t) => [index("market_payouts_state_idx").on(t.state, t.createdAt)],
);

/**
 * Every transaction the escrow key signed, as the watcher read it from the chain (chain/account-transactions.ts),
 * stored with the payments and the cursor that read it, so the rows always cover the chain up to the cursor. Each
 * payout carries the hash memo of its obligation id (escrow/obligations.ts): before signing an obligation, the
 * watcher looks here for a payout already made for it (by a life of the database a restore erased); `reconcile`
 * names every row no obligation explains.
 */
export const marketEscrowTransactions = pgTable(
  "market_escrow_transactions",
  {
    txHash: text("tx_hash").primaryKey(),
    ledger: integer("ledger").notNull(),
    toid: text("toid").notNull(),
    closedAt: tz("closed_at").notNull(),
    successful: boolean("successful").notNull(),
    sequence: text("sequence").notNull(),
    memoType: text("memo_type").notNull(),
    memo: text("memo"),
    feeCharged: u64("fee_charged").notNull(),
    paidFee: boolean("paid_fee").notNull(),
    envelope: text("envelope").notNull(),
    moves: jsonb("moves").$type<OwnMove[]>().notNull(),
  },
  (t) => [index("market_escrow_transactions_memo_idx").on(t.memo)],
);

/** Escrow-settled sales (GET /v1/market/history/{node}). */
export const marketSales = pgTable(
  "market_sales",
  {
    id: text("id").primaryKey(),
    listingId: text("listing_id").notNull(),
    namespace: text("namespace").notNull(),
    node: text("node").notNull(),
    price: u64("price").notNull(),
    fee: u64("fee").notNull(),
    seller: text("seller").notNull(),
    buyer: text("buyer").notNull(),
    settledAt: tz("settled_at").notNull(),
    washFlagged: boolean("wash_flagged").notNull(),
  },
  (t) => [index("market_sales_node_idx").on(t.node, t.settledAt)],
);
