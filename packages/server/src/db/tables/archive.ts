// The event archive and the indexer's bookkeeping: followed contracts, streams, events, gaps, dead letters, cursor and writer fence.
import { bigint, boolean, index, integer, jsonb, pgTable, serial, text } from "drizzle-orm/pg-core";
import { byteKey, tz } from "./columns.ts";

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
    id: byteKey("id").primaryKey(),
    contractId: byteKey("contract_id").notNull(),
    ledger: integer("ledger").notNull(),
    /** Chain time of the ledger; null when unknown. */
    at: tz("at"),
    txHash: byteKey("tx_hash").notNull(),
    transactionIndex: integer("transaction_index").notNull(),
    operationIndex: integer("operation_index").notNull(),
    inSuccessfulContractCall: boolean("in_successful_contract_call").notNull(),
    topics: jsonb("topics").$type<string[]>().notNull(),
    value: text("value").notNull(),
    /** First topic when it is a symbol (the event name). */
    type: text("type"),
    /** What the event is about: a node, an address or a claim id (for /v1/events?subject=). */
    subject: byteKey("subject"),
    /** Namespace label the event belongs to, when known (for /v1/events?namespace=). */
    namespace: byteKey("namespace"),
    ingestedAt: tz("ingested_at").notNull().defaultNow(),
  },
  (t) => [
    index("events_contract_idx").on(t.contractId, t.id),
    index("events_subject_idx").on(t.subject, t.id),
    index("events_namespace_idx").on(t.namespace, t.id),
    // /v1/events?txHash= (the events of one transaction): a point read, whatever the archive's size.
    index("events_tx_hash_idx").on(t.txHash, t.id),
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
 * Which chain this database mirrors (docs/operations.md "A different or reset chain"): the network passphrase and
 * a ledger the writer has seen with its hash, moved forward as it follows. A writer pointed at another network,
 * or at a chain that went backwards (its head below the mirror's, or a known ledger with another hash, as when a
 * test network is reset), stops and records why here; /v1/status shows it. Re-checked at every writer start.
 */
export const chainIdentity = pgTable("chain_identity", {
  id: integer("id").primaryKey().default(1),
  networkPassphrase: text("network_passphrase"),
  ledger: integer("ledger"),
  ledgerHash: text("ledger_hash"),
  checkedAt: tz("checked_at"),
  /** Why the writer stopped; null while the chain is the one this database mirrors. */
  refusedReason: text("refused_reason"),
  refusedAt: tz("refused_at"),
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
