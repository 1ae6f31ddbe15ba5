// The rows one page of events touches, loaded once, changed in memory in chain order, written back in bulk.
// A per-event round trip would cost ~0.1 ms each on Postgres; batching keeps ingest at tens of thousands of
// events per second while the page still commits as one transaction.
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { anyOf, bulkWrite } from "../db/bulk.ts";
import { copyRows } from "../db/copy.ts";
import {
  claimCredits,
  claimFeePolicy,
  claimFeeReceipts,
  claimFeeSweeps,
  claimObjections,
  claims,
  feeReceipts,
  nameHistory,
  names,
  namespaces,
  primaryNames,
  resolverRecords,
  subnames,
  trackedContracts,
} from "../db/tables.ts";
import type { Db } from "../db/types.ts";

export type NamespaceRow = typeof namespaces.$inferSelect;
export type NameRow = typeof names.$inferSelect;
export type HistoryRow = typeof nameHistory.$inferInsert;
export type PrimaryRow = typeof primaryNames.$inferSelect;
export type ResolverRow = typeof resolverRecords.$inferSelect;
export type SubnameRow = typeof subnames.$inferSelect;
export type ClaimRow = typeof claims.$inferSelect;
export type ObjectionRow = typeof claimObjections.$inferSelect;
export type ReceiptRow = typeof feeReceipts.$inferSelect;
export type TrackedRow = typeof trackedContracts.$inferSelect;
export type ReceiptEpochRow = typeof claimFeeReceipts.$inferSelect;
export type CreditRow = typeof claimCredits.$inferSelect;
export type FeePolicyRow = typeof claimFeePolicy.$inferSelect;
export type SweepRow = typeof claimFeeSweeps.$inferSelect;

/** A keyed table of rows: `undefined` = not loaded, `null` = known absent or deleted. */
class Rows<K, R> {
  private readonly rows = new Map<K, R | null>();
  private readonly dirty = new Set<K>();
  /** Keys the load found absent (their rows, if written, are new). */
  private readonly absent = new Set<K>();

  seed(key: K, row: R | null): void {
    if (this.rows.has(key)) return;
    this.rows.set(key, row);
    if (row === null) this.absent.add(key);
  }

  get(key: K): R | null {
    return this.rows.get(key) ?? null;
  }

  set(key: K, row: R | null): void {
    this.rows.set(key, row);
    this.dirty.add(key);
  }

  changed(): { upserts: R[]; deletes: K[] } {
    const upserts: R[] = [];
    const deletes: K[] = [];
    for (const key of this.dirty) {
      const row = this.rows.get(key);
      if (row === null || row === undefined) deletes.push(key);
      else upserts.push(row);
    }
    return { upserts, deletes };
  }

  /** Changed rows split into those the load found absent (`inserts`) and the rest (`upserts`). */
  written(): { inserts: R[]; upserts: R[] } {
    const inserts: R[] = [];
    const upserts: R[] = [];
    for (const key of this.dirty) {
      const row = this.rows.get(key);
      if (row === null || row === undefined) continue;
      (this.absent.has(key) ? inserts : upserts).push(row);
    }
    return { inserts, upserts };
  }

  values(): R[] {
    return [...this.rows.values()].filter((r): r is R => r !== null);
  }
}

export interface Keys {
  namespaces: Set<string>;
  names: Set<string>;
  primary: Set<string>;
  resolver: Set<string>;
  subnames: Set<string>;
  claims: Set<bigint>;
  receipts: Set<string>;
  /** Credit rows, as creditKey(kind, payee). */
  credits: Set<string>;
}

export function emptyKeys(): Keys {
  return {
    namespaces: new Set(),
    names: new Set(),
    primary: new Set(),
    resolver: new Set(),
    subnames: new Set(),
    claims: new Set(),
    receipts: new Set(),
    credits: new Set(),
  };
}

export class WorkingSet {
  readonly namespaces = new Rows<string, NamespaceRow>();
  readonly names = new Rows<string, NameRow>();
  readonly primary = new Rows<string, PrimaryRow>();
  readonly resolver = new Rows<string, ResolverRow>();
  readonly subnames = new Rows<string, SubnameRow>();
  readonly claims = new Rows<string, ClaimRow>();
  readonly objections = new Rows<string, ObjectionRow>();
  readonly receipts = new Rows<string, ReceiptRow>();
  /** Receipt epochs, as receiptEpochKey(label, epoch); written whole, never read back. */
  readonly receiptEpochs = new Rows<string, ReceiptEpochRow>();
  readonly credits = new Rows<string, CreditRow>();
  /** Fee policies by allocator id; written whole, never read back. */
  readonly feePolicies = new Rows<string, FeePolicyRow>();
  readonly sweeps: SweepRow[] = [];
  readonly history: HistoryRow[] = [];
  /** Contracts seen for the first time in this page, or whose role changed (e.g. retired). */
  readonly tracked = new Map<string, TrackedRow>();
  /** Nodes whose resolution may have changed, notified to API caches on commit. */
  readonly changedNodes = new Set<string>();
  /** Namespaces (labels) whose every name's resolution may have changed (a lock), notified likewise. */
  readonly changedNamespaces = new Set<string>();

  /**
   * Loads every row the page may touch in one query per table, locked (FOR UPDATE) in key order: when streams
   * commit concurrently, a batch that needs a row another batch is changing waits and then reads the committed
   * row, so no whole-row write-back can undo another stream's change.
   */
  async load(db: Db, keys: Keys): Promise<void> {
    const nsKeys = [...keys.namespaces];
    if (nsKeys.length > 0) {
      const found = await db
        .select()
        .from(namespaces)
        .where(anyOf(namespaces.node, nsKeys))
        .orderBy(namespaces.node)
        .for("update");
      for (const r of found) this.namespaces.seed(r.node, r);
    }
    for (const k of nsKeys) this.namespaces.seed(k, null);
    await loadInto(db, names, names.node, keys.names, this.names, (r) => r.node);
    await loadInto(db, primaryNames, primaryNames.address, keys.primary, this.primary, (r) => r.address);
    await loadInto(db, resolverRecords, resolverRecords.node, keys.resolver, this.resolver, (r) => r.node);
    await loadInto(db, subnames, subnames.node, keys.subnames, this.subnames, (r) => r.node);
    await this.loadAllocator(db, keys);
  }

  /**
   * Receipts first: a settlement (fee_done) also updates the claim that paid the epoch, and a claim's end may
   * credit its claimant's bond credit, so those claims and credits are loaded too.
   */
  private async loadAllocator(db: Db, keys: Keys): Promise<void> {
    await loadInto(db, feeReceipts, feeReceipts.label, keys.receipts, this.receipts, (r) => r.label);
    const claimIds = new Set(keys.claims);
    for (const r of this.receipts.values()) if (r.claimId !== null) claimIds.add(r.claimId);
    const ids = [...claimIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (ids.length > 0) {
      for (const r of await db
        .select()
        .from(claims)
        .where(anyOf(claims.id, ids))
        .orderBy(claims.id)
        .for("update"))
        this.claims.seed(claimKey(r.id), r);
      for (const r of await db
        .select()
        .from(claimObjections)
        .where(anyOf(claimObjections.claimId, ids))
        .for("update")) {
        this.objections.seed(objectionKey(r.claimId, r.objector), r);
      }
    }
    for (const id of ids) this.claims.seed(claimKey(id), null);
    const creditKeys = new Set(keys.credits);
    for (const c of this.claims.values()) creditKeys.add(creditKey("bond", c.claimant));
    const list = [...creditKeys].sort();
    if (list.length > 0) {
      const found = await db
        .select()
        .from(claimCredits)
        .where(anyOf(claimCredits.payee, [...new Set(list.map((k) => k.slice(k.indexOf(":") + 1)))].sort()))
        .orderBy(claimCredits.kind, claimCredits.payee)
        .for("update");
      for (const r of found) {
        const k = creditKey(r.kind as CreditKind, r.payee);
        if (creditKeys.has(k)) this.credits.seed(k, r);
      }
    }
    for (const k of list) this.credits.seed(k, null);
  }

  liveObjections(claimId: bigint): ObjectionRow[] {
    return this.objections.values().filter((o) => o.claimId === claimId && o.live);
  }

  /** Writes every changed row back inside the page's transaction. */
  async flush(db: Db): Promise<void> {
    await upsert(db, namespaces, namespaces.node, this.namespaces.changed().upserts);
    // A back-fill mostly issues names: those the load found absent go in by COPY (db/copy.ts), which on a
    // conflict — a row inserted since the load — falls back to the upsert. Parsing them as JSON and checking
    // each for a conflict cost PostgreSQL about a sixth of the back-fill.
    const named = this.names.written();
    await copyRows(db, names, named.inserts, { conflict: [names.node], onConflict: "update" });
    await upsert(db, names, names.node, named.upserts);
    const primary = this.primary.changed();
    await upsert(db, primaryNames, primaryNames.address, primary.upserts);
    if (primary.deletes.length > 0)
      await db.delete(primaryNames).where(anyOf(primaryNames.address, primary.deletes));
    await upsert(db, resolverRecords, resolverRecords.node, this.resolver.changed().upserts);
    await upsert(db, subnames, subnames.node, this.subnames.changed().upserts);
    await upsert(db, claims, claims.id, this.claims.changed().upserts);
    await upsertComposite(db, this.objections.changed().upserts);
    await upsert(db, feeReceipts, feeReceipts.label, this.receipts.changed().upserts);
    await bulkWrite(db, claimFeeReceipts, this.receiptEpochs.changed().upserts, {
      conflict: [claimFeeReceipts.label, claimFeeReceipts.epoch],
      onConflict: "update",
    });
    await bulkWrite(db, claimCredits, this.credits.changed().upserts, {
      conflict: [claimCredits.kind, claimCredits.payee],
      onConflict: "update",
    });
    await upsert(db, claimFeePolicy, claimFeePolicy.allocatorId, this.feePolicies.changed().upserts);
    await bulkWrite(db, claimFeeSweeps, this.sweeps, {
      conflict: [claimFeeSweeps.eventId],
      onConflict: "nothing",
    });
    // Append-only: COPY on PostgreSQL (db/copy.ts).
    await copyRows(db, nameHistory, this.history, {
      conflict: [nameHistory.eventId, nameHistory.node],
      onConflict: "nothing",
    });
    await upsert(db, trackedContracts, trackedContracts.contractId, [...this.tracked.values()]);
  }
}

export const claimKey = (id: bigint): string => id.toString();
export const objectionKey = (id: bigint, objector: string): string => `${id}:${objector}`;
export type CreditKind = "fee" | "bond";
export const creditKey = (kind: CreditKind, payee: string): string => `${kind}:${payee}`;
export const receiptEpochKey = (label: string, epoch: number): string => `${label}:${epoch}`;

async function loadInto<T extends PgTable, R, K extends string>(
  db: Db,
  table: T,
  column: PgColumn,
  keys: Set<K>,
  rows: Rows<K, R>,
  keyOf: (row: R) => K,
): Promise<void> {
  const list = [...keys].sort();
  for (const chunk of chunks(list, 5000)) {
    const found = (await db
      .select()
      .from(table as PgTable)
      .where(anyOf(column, chunk))
      .orderBy(column)
      .for("update")) as R[];
    for (const r of found) rows.seed(keyOf(r), r);
  }
  for (const k of list) rows.seed(k, null);
}

async function upsert<T extends PgTable>(
  db: Db,
  table: T,
  key: PgColumn,
  rows: readonly object[],
): Promise<void> {
  await bulkWrite(db, table, rows, { conflict: [key], onConflict: "update" });
}

async function upsertComposite(db: Db, rows: ObjectionRow[]): Promise<void> {
  await bulkWrite(db, claimObjections, rows, {
    conflict: [claimObjections.claimId, claimObjections.objector],
    onConflict: "update",
  });
}

export function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
