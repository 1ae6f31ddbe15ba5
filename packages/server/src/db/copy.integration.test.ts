// COPY for the append-only tables: values survive the text format exactly, and a conflict falls back to the
// bulk insert's rule inside the same transaction instead of failing the batch.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_DATABASE_KINDS, type TestDatabase } from "../../test/fixtures/database.ts";
import { copyRows, pgConnection } from "./copy.ts";
import { events, nameHistory, names } from "./tables.ts";

const row = (n: number, over: Partial<typeof events.$inferInsert> = {}): typeof events.$inferInsert => ({
  id: `${String(n).padStart(19, "0")}-0000000001`,
  contractId: "CCOPYTEST",
  ledger: n,
  at: new Date("2026-11-23T07:00:00.000Z"),
  txHash: "ab".repeat(32),
  transactionIndex: 1,
  operationIndex: 0,
  inSuccessfulContractCall: true,
  topics: ["AAAADw==", 'quote " and \\ backslash'],
  value: "line one\nline two\ttab\r\\N not null",
  type: "name_v1",
  subject: null,
  namespace: "acme",
  ...over,
});

describe.each(TEST_DATABASE_KINDS)("copyRows on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("uses COPY on PostgreSQL, inside the caller's transaction", async () => {
    await database.db.transaction(async (tx) => {
      expect(pgConnection(tx) !== null).toBe(kind === "postgres");
    });
  });

  it("stores every value exactly, nulls, escapes and JSON included", async () => {
    await database.db.transaction(async (tx) => {
      await copyRows(tx, events, [row(1), row(2, { at: null, type: null })], {
        conflict: [events.id],
        onConflict: "nothing",
      });
    });
    const stored = await database.db.select().from(events).where(eq(events.contractId, "CCOPYTEST"));
    expect(stored.map(({ ingestedAt: _, ...r }) => r)).toEqual([
      { ...row(1) },
      { ...row(2), at: null, type: null },
    ]);
  });

  it("keeps every row when the rows span several COPY chunks", async () => {
    const many = Array.from({ length: 2500 }, (_, i) => row(10_000 + i, { contractId: "CCOPYMANY" }));
    await database.db.transaction(async (tx) => {
      await copyRows(tx, events, many, { conflict: [events.id], onConflict: "nothing" });
    });
    const stored = await database.db
      .select()
      .from(events)
      .where(eq(events.contractId, "CCOPYMANY"))
      .orderBy(events.id);
    expect(stored.map(({ ingestedAt: _, ...r }) => r)).toEqual(many);
  });

  it("falls back to the conflict rule on a duplicate and keeps the transaction alive", async () => {
    await database.db.transaction(async (tx) => {
      await copyRows(tx, events, [row(2), row(3)], { conflict: [events.id], onConflict: "nothing" });
      await copyRows(
        tx,
        nameHistory,
        [
          {
            node: "aa".repeat(32),
            eventId: row(3).id,
            generation: 7n,
            action: "issue",
            holder: null,
            ledger: 3,
            txHash: "cd".repeat(32),
            at: null,
          },
        ],
        { conflict: [nameHistory.eventId, nameHistory.node], onConflict: "nothing" },
      );
    });
    const stored = await database.db
      .select({ id: events.id })
      .from(events)
      .where(eq(events.contractId, "CCOPYTEST"));
    expect(stored.map((r) => r.id)).toEqual([row(1).id, row(2).id, row(3).id]);
    const [history] = await database.db
      .select()
      .from(nameHistory)
      .where(eq(nameHistory.eventId, row(3).id));
    expect(history).toMatchObject({ generation: 7n, holder: null, action: "issue" });
  });

  it("updates a keyed row inserted since the caller found it absent (names), by the upsert rule", async () => {
    const name = (holder: string): typeof names.$inferInsert => ({
      node: "bb".repeat(32),
      namespace: "copytest",
      label: "alice",
      holder,
      address: holder,
      expiresAt: null,
      generation: 1n,
      active: true,
      issuedLedger: 5,
      issuedAt: null,
      txHash: "ef".repeat(32),
      updatedLedger: 5,
      transferTo: null,
      transferExpires: null,
    });
    await database.db.insert(names).values(name("GFIRST"));
    await database.db.transaction(async (tx) => {
      await copyRows(tx, names, [name("GSECOND")], { conflict: [names.node], onConflict: "update" });
    });
    const stored = await database.db.select().from(names).where(eq(names.namespace, "copytest"));
    expect(stored).toEqual([name("GSECOND")]);
  });
});
