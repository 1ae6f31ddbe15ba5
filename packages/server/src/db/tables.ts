// Domain tables: the event archive and the indexer's bookkeeping, then one projection per contract concern.
// Chain time (`at`, `*_at` from ledger close times) and ingestion time (`ingested_at`) are separate columns;
// a chain time that is not known stays null and is never filled with ingestion time (spec §6.4 rule 2).
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
});

/** One row: what the indexer last observed and processed (spec §4.3, §6.4 rule 5). */
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
    deadline: u64("deadline").notNull(),
    response: text("response"),
    awardedAt: u64("awarded_at"),
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
});

/** Billing subscriptions per namespace; the billing watcher fills it, the directory reads it. */
export const subscriptions = pgTable("subscriptions", {
  namespace: text("namespace").primaryKey(),
  status: text("status").notNull(),
  activeUntil: tz("active_until"),
  updatedAt: tz("updated_at").notNull().defaultNow(),
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
