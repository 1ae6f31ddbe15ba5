// Domain tables: the event archive and the indexer's bookkeeping, then one projection per contract concern.
// Chain time (`at`, `*_at` from ledger close times) and ingestion time (`ingested_at`) are separate columns;
// a chain time that is not known stays null and is never filled with ingestion time (docs/contracts.md "Which contracts are followed").
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const u64 = (name: string) => bigint(name, { mode: "bigint" });

/** Every contract the indexer follows; retired registrars and resolvers stay, with their history. */
export const trackedContracts = pgTable("tracked_contracts", {
  contractId: text("contract_id").primaryKey(),
  role: text("role").notNull(),
  namespaceNode: text("namespace_node"),
  startLedger: integer("start_ledger").notNull(),
  retired: boolean("retired").notNull().default(false),
  streamId: integer("stream_id").notNull(),
  discoveredAt: tz("discovered_at").notNull().defaultNow(),
});

/** A getEvents stream over up to 25 contracts (5 filters × 5 ids) with its own cursor and progress. */
export const streams = pgTable("streams", {
  id: serial("id").primaryKey(),
  /** First ledger not yet fully applied. */
  nextLedger: integer("next_ledger").notNull(),
  /** RPC cursor to continue from (null: start at next_ledger). */
  cursor: text("cursor"),
  updatedAt: tz("updated_at").notNull().defaultNow(),
});

/** The raw archive: one row per contract event, keyed by its RPC event id (a replay is harmless). */
export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    contractId: text("contract_id").notNull(),
    ledger: integer("ledger").notNull(),
    /** Chain time of the ledger; null when unknown. */
    at: tz("at"),
    txHash: text("tx_hash").notNull(),
    transactionIndex: integer("transaction_index").notNull(),
    operationIndex: integer("operation_index").notNull(),
    inSuccessfulContractCall: boolean("in_successful_contract_call").notNull(),
    topics: jsonb("topics").$type<string[]>().notNull(),
    value: text("value").notNull(),
    /** First topic when it is a symbol (the event name). */
    type: text("type"),
    /** What the event is about: a node, an address or a claim id (for /v1/events?subject=). */
    subject: text("subject"),
    /** Namespace label the event belongs to, when known (for /v1/events?namespace=). */
    namespace: text("namespace"),
    ingestedAt: tz("ingested_at").notNull().defaultNow(),
  },
  (t) => [
    index("events_contract_idx").on(t.contractId, t.id),
    index("events_subject_idx").on(t.subject, t.id),
    index("events_namespace_idx").on(t.namespace, t.id),
  ],
);

export const gaps = pgTable("gaps", {
  id: serial("id").primaryKey(),
  contractId: text("contract_id").notNull(),
  fromLedger: integer("from_ledger").notNull(),
  toLedger: integer("to_ledger").notNull(),
  reason: text("reason").notNull(),
  recordedAt: tz("recorded_at").notNull().defaultNow(),
});

/** Events that could not be decoded or applied; archived all the same, counted until resolved. */
export const deadLetters = pgTable("dead_letters", {
  eventId: text("event_id").primaryKey(),
  contractId: text("contract_id").notNull(),
  ledger: integer("ledger").notNull(),
  error: text("error").notNull(),
  createdAt: tz("created_at").notNull().defaultNow(),
  resolvedAt: tz("resolved_at"),
  /** How it was resolved: retried and projected, or the operator's reason (namereg dead-letters resolve). */
  resolution: text("resolution"),
});

/** One row: what the indexer last observed and processed (docs/api.md "GET /v1/status", docs/api.md "GET /v1/coverage"). */
export const indexerState = pgTable("indexer_state", {
  id: integer("id").primaryKey().default(1),
  headLedger: integer("head_ledger"),
  headObservedAt: tz("head_observed_at"),
  processedLedger: integer("processed_ledger"),
  processedAt: tz("processed_at"),
  /** Since when the indexer's own head reads have failed without a success; null while they succeed. */
  rpcFailingSince: tz("rpc_failing_since"),
});

/**
 * Fencing for the single writer: whoever takes the writer lock bumps `epoch`, and every batch transaction reads
 * the row FOR SHARE and aborts unless it still carries its own epoch. A writer that lost its lock without noticing
 * can therefore not commit once its successor has started (the bump waits for batches in flight).
 */
export const writerFence = pgTable("writer_fence", {
  id: integer("id").primaryKey().default(1),
  epoch: bigint("epoch", { mode: "number" }).notNull().default(0),
  takenAt: tz("taken_at").notNull().defaultNow(),
});

// ---- projections ----

export const namespaces = pgTable(
  "namespaces",
  {
    node: text("node").primaryKey(),
    label: text("label").notNull(),
    owner: text("owner").notNull(),
    registrar: text("registrar").notNull(),
    resolver: text("resolver"),
    locked: boolean("locked").notNull().default(false),
    method: text("method").notNull(),
    allocatedLedger: integer("allocated_ledger").notNull(),
    allocatedAt: tz("allocated_at"),
    txHash: text("tx_hash").notNull(),
    subnamePolicy: text("subname_policy").notNull().default("enabled"),
    chainNetworks: jsonb("chain_networks").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    transferTo: text("transfer_to"),
    transferExpires: u64("transfer_expires"),
    issuedNames: integer("issued_names").notNull().default(0),
  },
  (t) => [
    uniqueIndex("namespaces_label_idx").on(t.label),
    index("namespaces_label_trgm_idx").using("gin", sql`${t.label} gin_trgm_ops`),
  ],
);

/** Off-chain namespace profile set by the owner in the console. */
export const namespaceProfiles = pgTable("namespace_profiles", {
  label: text("label").primaryKey(),
  displayName: text("display_name"),
  logo: text("logo"),
  updatedAt: tz("updated_at").notNull().defaultNow(),
});

export const names = pgTable(
  "names",
  {
    node: text("node").primaryKey(),
    namespace: text("namespace").notNull(),
    label: text("label").notNull(),
    holder: text("holder").notNull(),
    address: text("address").notNull(),
    /** Unix seconds; null for a name without expiry (never read as permanence by itself). */
    expiresAt: u64("expires_at"),
    generation: u64("generation").notNull(),
    active: boolean("active").notNull(),
    issuedLedger: integer("issued_ledger").notNull(),
    issuedAt: tz("issued_at"),
    txHash: text("tx_hash").notNull(),
    updatedLedger: integer("updated_ledger").notNull(),
    transferTo: text("transfer_to"),
    transferExpires: u64("transfer_expires"),
  },
  (t) => [
    index("names_holder_idx").on(t.holder, t.issuedLedger),
    uniqueIndex("names_ns_label_idx").on(t.namespace, t.label),
    index("names_label_pattern_idx").using("btree", sql`${t.label} text_pattern_ops`),
    // Substring search for /v1/lookup stays fast at millions of names (pg_trgm, migration 0002).
    index("names_label_trgm_idx").using("gin", sql`${t.label} gin_trgm_ops`),
  ],
);

export const nameHistory = pgTable(
  "name_history",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    node: text("node").notNull(),
    eventId: text("event_id").notNull(),
    generation: u64("generation").notNull(),
    action: text("action").notNull(),
    holder: text("holder"),
    ledger: integer("ledger").notNull(),
    txHash: text("tx_hash").notNull(),
    at: tz("at"),
    ingestedAt: tz("ingested_at").notNull().defaultNow(),
  },
  // Keyed by event (one history row per event and node), so a replayed event can never add a second entry.
  (t) => [
    index("name_history_node_idx").on(t.node, t.id),
    uniqueIndex("name_history_event_node_idx").on(t.eventId, t.node),
  ],
);

/** Count of successful resolutions per name, flushed in batches off the resolve path. */
export const nameStats = pgTable("name_stats", {
  node: text("node").primaryKey(),
  resolutions: u64("resolutions").notNull().default(sql`0`),
});

export const primaryNames = pgTable("primary_names", {
  address: text("address").primaryKey(),
  name: text("name").notNull(),
  ledger: integer("ledger").notNull(),
  txHash: text("tx_hash").notNull(),
});

/** What the resolver's events say about a node (values of text records are read live, never stored). */
export const resolverRecords = pgTable("resolver_records", {
  node: text("node").primaryKey(),
  generation: u64("generation").notNull(),
  address: text("address"),
  paymentAddress: text("payment_address"),
  paymentMemo: text("payment_memo"),
  textKeys: jsonb("text_keys").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  chainNetworks: jsonb("chain_networks").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  displayFor: text("display_for"),
  updatedLedger: integer("updated_ledger").notNull(),
});

export const subnames = pgTable(
  "subnames",
  {
    node: text("node").primaryKey(),
    parentNode: text("parent_node").notNull(),
    namespace: text("namespace").notNull(),
    parentLabel: text("parent_label").notNull(),
    child: text("child").notNull(),
    generation: u64("generation").notNull(),
    exists: boolean("exists").notNull(),
    address: text("address").notNull(),
    ledger: integer("ledger").notNull(),
  },
  (t) => [index("subnames_parent_idx").on(t.parentNode)],
);

// The allocator's mirror (indexer/projections/allocator.ts); the claim-queue and claim-fee routes read it.
// - claims: one row per claim id: label, claimant, basis, evidence, claimant response, state (announced,
//   objected, awarded, withdrawn, rejected, expired), announced ledger and chain time, deadline (unix s), award
//   time (chain time, unix s) and the fee outcome of the claim's receipt epoch (`Stuck` is a fee outcome only:
//   the claim keeps its state).
// - claim_objections: one row per (claim, objector): basis and bond, live or ended with the contract's reason
//   (dismissed, timeout, awarded, closed) and the ledgers it was filed and ended in.
// - fee_receipts: the current receipt per label (the latest epoch), as the contract's fee_receipt(label) holds it.
// - claim_fee_receipts: every receipt epoch per label; a fresh claim for a label whose receipt is terminal starts
//   the next epoch, earlier ones stay here with their outcome and refund/treasury split.
// - claim_credits: per kind (`fee` refunds, `bond` objection bonds) and payee, the amounts credited and claimed.
//   Fee credits are exact (fee_cred, fee_pull); the contract emits no event when a bond credit is claimed, so a
//   bond row's `claimed` stays 0 and what is still available must be read live (bond_credit).
// - claim_fee_policy: the last fee_cfg per allocator (routes still quote the live policy).
// - claim_fee_sweeps: every surplus sweep (fee_sweep), by event id.
export const claims = pgTable(
  "claims",
  {
    id: u64("id").primaryKey(),
    label: text("label").notNull(),
    claimant: text("claimant").notNull(),
    basis: jsonb("basis").$type<string[]>().notNull(),
    evidence: jsonb("evidence").$type<{ label: string; url: string }[]>().notNull(),
    state: text("state").notNull(),
    announcedLedger: integer("announced_ledger").notNull(),
    /** Chain time of the announcing ledger; null when the RPC did not report it. */
    announcedAt: tz("announced_at"),
    deadline: u64("deadline").notNull(),
    response: text("response"),
    awardedAt: u64("awarded_at"),
    /** Outcome of this claim's fee receipt epoch: Held until settled; null before fee_paid is seen. */
    feeOutcome: text("fee_outcome"),
    updatedLedger: integer("updated_ledger").notNull(),
  },
  (t) => [index("claims_label_idx").on(t.label)],
);

export const claimObjections = pgTable(
  "claim_objections",
  {
    claimId: u64("claim_id").notNull(),
    objector: text("objector").notNull(),
    basis: jsonb("basis").$type<string[]>().notNull(),
    bond: u64("bond").notNull(),
    live: boolean("live").notNull(),
    endReason: text("end_reason"),
    filedLedger: integer("filed_ledger"),
    endedLedger: integer("ended_ledger"),
  },
  (t) => [primaryKey({ columns: [t.claimId, t.objector] })],
);

export const feeReceipts = pgTable("fee_receipts", {
  label: text("label").primaryKey(),
  key: text("key").notNull(),
  claimant: text("claimant").notNull(),
  token: text("token").notNull(),
  recipient: text("recipient"),
  amount: u64("amount").notNull(),
  outcome: text("outcome").notNull(),
  refundAmount: u64("refund_amount").notNull(),
  treasuryAmount: u64("treasury_amount").notNull(),
  ledger: integer("ledger").notNull(),
  /** 1 for a label's first receipt, +1 each time a fresh claim replaces a terminal one. */
  epoch: integer("epoch").notNull().default(1),
  /** The claim that paid this epoch (the announce in the same transaction). */
  claimId: u64("claim_id"),
  paidLedger: integer("paid_ledger"),
  settledLedger: integer("settled_ledger"),
});

export const claimFeeReceipts = pgTable(
  "claim_fee_receipts",
  {
    label: text("label").notNull(),
    epoch: integer("epoch").notNull(),
    key: text("key").notNull(),
    claimId: u64("claim_id"),
    claimant: text("claimant").notNull(),
    token: text("token").notNull(),
    recipient: text("recipient"),
    amount: u64("amount").notNull(),
    outcome: text("outcome").notNull(),
    refundAmount: u64("refund_amount").notNull(),
    treasuryAmount: u64("treasury_amount").notNull(),
    paidLedger: integer("paid_ledger"),
    settledLedger: integer("settled_ledger"),
  },
  (t) => [primaryKey({ columns: [t.label, t.epoch] })],
);

export const claimCredits = pgTable(
  "claim_credits",
  {
    kind: text("kind").notNull(),
    payee: text("payee").notNull(),
    credited: u64("credited").notNull(),
    claimed: u64("claimed").notNull(),
    updatedLedger: integer("updated_ledger").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.payee] })],
);

export const claimFeePolicy = pgTable("claim_fee_policy", {
  allocatorId: text("allocator_id").primaryKey(),
  token: text("token").notNull(),
  amount: u64("amount").notNull(),
  recipient: text("recipient").notNull(),
  ledger: integer("ledger").notNull(),
  at: tz("at"),
});

export const claimFeeSweeps = pgTable("claim_fee_sweeps", {
  eventId: text("event_id").primaryKey(),
  recipient: text("recipient").notNull(),
  amount: u64("amount").notNull(),
  ledger: integer("ledger").notNull(),
  at: tz("at"),
});

/**
 * Billing subscriptions per namespace (docs/billing.md); the billing watcher and the operator write it, the
 * directory and the owner's console read it. `status` is the operator's standing (`active` or `suspended`);
 * whether the namespace is paid is `activeUntil` (paid until, exclusive) against the clock.
 */
export const subscriptions = pgTable("subscriptions", {
  namespace: text("namespace").primaryKey(),
  status: text("status").notNull(),
  activeUntil: tz("active_until"),
  updatedAt: tz("updated_at").notNull().defaultNow(),
  /** Namespace node (hex): the memo hash its payments carry. */
  node: text("node"),
  suspendedAt: tz("suspended_at"),
  suspendReason: text("suspend_reason"),
});

/**
 * Every payment the billing account received, written in the transaction that advances the billing cursor.
 * `applied` (periods credited to `namespace`), `quarantined` (`reason`: nothing is credited until an operator
 * applies or resolves it), `resolved` (settled by hand, `resolution` says how).
 */
export const billingPayments = pgTable(
  "billing_payments",
  {
    /** `txHash:operationIndex`. */
    id: text("id").primaryKey(),
    ledger: integer("ledger").notNull(),
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
    reason: text("reason"),
    namespace: text("namespace"),
    periods: integer("periods"),
    /** The namespace's paid-until right after this payment was applied. */
    paidUntil: tz("paid_until"),
    appliedAt: tz("applied_at"),
    resolution: text("resolution"),
    resolvedAt: tz("resolved_at"),
    receivedAt: tz("received_at").notNull().defaultNow(),
  },
  (t) => [index("billing_payments_state_idx").on(t.state, t.toid)],
);

/** What operators did to billing (apply, resolve, suspend, resume), each with its reason. */
export const billingActions = pgTable("billing_actions", {
  id: serial("id").primaryKey(),
  at: tz("at").notNull().defaultNow(),
  action: text("action").notNull(),
  paymentId: text("payment_id"),
  namespace: text("namespace"),
  reason: text("reason").notNull(),
  detail: jsonb("detail"),
});

/** Single-use SEP-10 challenges: a challenge is accepted once, before it expires. */
export const authChallenges = pgTable("auth_challenges", {
  /** Hash of the challenge transaction (hex). */
  id: text("id").primaryKey(),
  account: text("account").notNull(),
  createdAt: tz("created_at").notNull().defaultNow(),
  expiresAt: tz("expires_at").notNull(),
  usedAt: tz("used_at"),
});

/**
 * Server-side sessions, so a token can be revoked before it expires. A wallet session has an account; an operator
 * session (created by the CLI) has none. `namespace` is the namespace the session is scoped to, once selected.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    account: text("account"),
    namespace: text("namespace"),
    createdAt: tz("created_at").notNull().defaultNow(),
    expiresAt: tz("expires_at").notNull(),
    revokedAt: tz("revoked_at"),
  },
  (t) => [index("sessions_account_idx").on(t.account)],
);

// ---- marketplace escrow (docs/market.md) ----

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
