// Resolver records and subnames.
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { byteKey, u64 } from "./columns.ts";

/** What the resolver's events say about a node (values of text records are read live, never stored). */
export const resolverRecords = pgTable("resolver_records", {
  node: byteKey("node").primaryKey(),
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
    node: byteKey("node").primaryKey(),
    parentNode: byteKey("parent_node").notNull(),
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
