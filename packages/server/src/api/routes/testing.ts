// For route tests: a fixed clock, fake chain heads and a way to set what the indexer last recorded.
import { deadLetters, events, gaps, indexerState } from "../../db/tables.ts";
import type { Database } from "../../db/types.ts";
import type { ChainHeadSource } from "../chain-head.ts";

export const NOW = new Date("2026-01-01T00:01:00.000Z");

export const secondsBefore = (at: Date, seconds: number): Date => new Date(at.getTime() - seconds * 1000);

/** A head that closed at 2026-01-01T00:00:55Z, in the RPC's Unix-seconds form. */
export function headAt(sequence: number, closeTime = "1767225655"): ChainHeadSource {
  return { head: async () => ({ sequence, closeTime }) };
}

export const failingChain: ChainHeadSource = {
  head: async () => {
    throw new Error("connect ECONNREFUSED 127.0.0.1:8000");
  },
};

export type IndexerRow = typeof indexerState.$inferInsert;

/** Empties what the status and archive routes read, then records `state` as the indexer's (none: never ran). */
export async function resetIndexer(database: Database, state?: Omit<IndexerRow, "id">): Promise<void> {
  const { db } = database;
  await db.delete(indexerState);
  await db.delete(deadLetters);
  await db.delete(gaps);
  await db.delete(events);
  if (state !== undefined) await db.insert(indexerState).values({ id: 1, ...state });
}

export async function addDeadLetter(database: Database, eventId: string, resolvedAt: Date | null = null) {
  await database.db
    .insert(deadLetters)
    .values({ eventId, contractId: "C", ledger: 1, error: "undecodable", resolvedAt });
}

/** A database whose every query fails, as when its server has gone away. */
export function unreachableDatabase(database: Database): Database {
  const fail = () => {
    throw new Error("connection terminated unexpectedly");
  };
  const broken = new Proxy(database.reader, { get: () => fail });
  return { ...database, reader: broken, db: broken, healthy: async () => false };
}
