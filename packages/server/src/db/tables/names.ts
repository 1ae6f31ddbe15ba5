// Names and namespaces: the registrar and namespace projections, name history, resolution counts and primary names.
import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { byteKey, tz, u64 } from "./columns.ts";

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
    node: byteKey("node").primaryKey(),
    namespace: text("namespace").notNull(),
    label: text("label").notNull(),
    holder: byteKey("holder").notNull(),
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
    // One name per label in a namespace, and the name routes' point reads (`=` is text_pattern_ops' equality
    // too); a namespace's names in byte order of their labels, paged by label (/v1/namespaces/{namespace}/names):
    // the keyset `label ~>~ cursor` walks it whatever the database's collation. One index for both, where there
    // were two: a back-fill maintains one btree fewer per name (bench/README.md; migration 0012).
    uniqueIndex("names_ns_label_pattern_idx").using("btree", t.namespace, sql`${t.label} text_pattern_ops`),
    // Name prefixes and common substrings for /v1/lookup walk labels in byte order (api/routes/discovery/lookup.ts);
    // the index carries every column those walks read (namespace, and what makes a name live), so they are
    // index-only and read no table pages for the names they pass over (migration 0011).
    index("names_label_pattern_idx").using(
      "btree",
      sql`${t.label} text_pattern_ops`,
      t.namespace,
      t.active,
      t.expiresAt,
    ),
    // Substring search for /v1/lookup stays fast at millions of names (pg_trgm, migration 0002).
    index("names_label_trgm_idx").using("gin", sql`${t.label} gin_trgm_ops`),
  ],
);

/**
 * The three-character substrings (trigrams) of every issued name's label past its first character, one row per
 * (trigram, label, namespace): a substring match starts past a label's first character (one at the start is a
 * prefix match), so the trigram a term starts with is there for every name it matches.
 * /v1/lookup walks a common substring's names in byte order of their labels here and stops at its page, where the
 * trigram GIN index must collect every name holding the term before any is returned (api/routes/discovery/lookup.ts).
 * Filled by a trigger on names (migration 0019), so every writer — the indexer's COPY and upserts, seeds, restores —
 * keeps it whole; names are never deleted, and a name's label and namespace never change.
 */
export const nameTrigrams = pgTable(
  "name_trigrams",
  {
    trigram: text("trigram").notNull(),
    label: text("label").notNull(),
    namespace: text("namespace").notNull(),
  },
  (t) => [
    // In the walk's order: labels in byte order (text_pattern_ops, as names_label_pattern_idx), then namespace. Not
    // unique: the trigger writes each row once (a name is inserted once), and an arbiter index made every row a
    // speculative insertion, about twice the cost.
    index("name_trigrams_idx").using(
      "btree",
      sql`${t.trigram} text_pattern_ops`,
      sql`${t.label} text_pattern_ops`,
      t.namespace,
    ),
  ],
);

export const nameHistory = pgTable(
  "name_history",
  {
    /** Insertion order (a back-fill inserts older events later): history pages walk `event_id`, the chain order. */
    id: bigserial("id", { mode: "number" }).notNull(),
    node: byteKey("node").notNull(),
    eventId: byteKey("event_id").notNull(),
    generation: u64("generation").notNull(),
    action: text("action").notNull(),
    holder: text("holder"),
    ledger: integer("ledger").notNull(),
    txHash: text("tx_hash").notNull(),
    at: tz("at"),
    ingestedAt: tz("ingested_at").notNull().defaultNow(),
  },
  // Keyed by event (one history row per event and node), so a replayed event can never add a second entry. That
  // key is the primary key: no query reads a row by `id` alone, and a separate index of it cost every issued name
  // one more btree insert (migration 0015).
  (t) => [
    primaryKey({ name: "name_history_pkey", columns: [t.eventId, t.node] }),
    // A name's history newest first in chain order: RPC event ids are fixed-width, so in the "C" collation their
    // byte order is the chain's (migration 0018; before it, pages walked `id` and a back-filled event came first).
    index("name_history_node_idx").on(t.node, t.eventId),
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
