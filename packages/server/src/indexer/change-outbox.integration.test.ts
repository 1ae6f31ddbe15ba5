// The indexer writes change events in the batch's own transaction, on both databases: a batch that fails at
// commit leaves neither its archive rows nor its changes (nor a notification) behind, the retried batch writes
// them once, and reading the chain again from the start adds nothing.
import { setTimeout as sleep } from "node:timers/promises";
import { demoKeypair, settlingWallet } from "@namereg/devnet";
import { nameNode, ResolverFns } from "@namereg/protocol";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_KINDS } from "../../test/fixtures/database.ts";
import { type IndexedDemoChain, indexDemo, indexerFor, runUntilIdle } from "../../test/fixtures/demo.ts";
import { CHANGES_CHANNEL, outboxBounds, readChanges } from "../db/outbox.ts";
import { events, streams } from "../db/tables.ts";

describe.each(TEST_DATABASE_KINDS)("change events of a batch on %s", (kind) => {
  let chain: IndexedDemoChain;

  beforeAll(async () => {
    chain = await indexDemo(kind);
    // Fails the transaction at COMMIT, after every statement of the batch (the outbox rows included) ran, while
    // the switch table holds a row.
    await chain.database.query("create table fail_switch (on_ boolean)");
    await chain.database.query(`
      create function fail_at_commit() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from fail_switch) then raise exception 'injected failure at commit'; end if;
        return null;
      end $$`);
    await chain.database.query(`
      create constraint trigger fail_at_commit after insert on change_outbox
      deferrable initially deferred for each row execute function fail_at_commit()`);
  }, 120_000); // indexing the demo: ~10 s alone, up to a minute on the loaded two-core machine

  afterAll(async () => {
    await chain?.database.close();
    await chain?.devnet.stop();
  });

  it("writes the demo's changes, once each", async () => {
    const rows = await readChanges(chain.database.db, 0, 1000);
    expect(new Set(rows.map((r) => r.type))).toEqual(
      new Set([
        "primary.changed",
        "claim.announced",
        "claim.objected",
        "claim.awarded",
        "namespace.policy_changed",
        "name.issued",
        "name.reclaimed",
        "subname.created",
        "subname.removed",
        "record.payment_changed",
        "record.text_changed",
        "record.chain_address_changed",
      ]),
    );
    const keys = rows.map((r) => `${r.eventId}/${r.type}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(rows.every((r) => !r.backfill)).toBe(true);
  });

  it("writes nothing for a batch that fails at commit, then exactly once when it is retried", async () => {
    const db = chain.database.db;
    const heard: string[] = [];
    const subscription = await chain.database.listen(CHANGES_CHANNEL, (p) => heard.push(p));
    try {
      const before = await outboxBounds(db);
      const archived = (await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(events))[0]?.n;
      const resolver = chain.devnet.demo?.namespaces.acme.resolver ?? "";
      await settlingWallet(chain.devnet).invoke(demoKeypair("alice"), resolver, ResolverFns.set_text, {
        node: nameNode("alice", "acme"),
        key: "retried",
        value: "x",
      });

      await chain.database.query("insert into fail_switch values (true)");
      const failure = await chain.indexer.runOnce().then(
        () => null,
        (error: unknown) => error as Error & { cause?: Error },
      );
      // PostgreSQL's error comes wrapped by Drizzle ("Failed query: commit"), PGlite's as it is.
      expect(`${failure?.message} ${failure?.cause?.message}`).toContain("injected failure at commit");
      expect(await readChanges(db, before.head, 10)).toEqual([]);
      expect((await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(events))[0]?.n).toBe(
        archived,
      );

      await chain.database.query("delete from fail_switch");
      await runUntilIdle(chain.indexer);
      const written = await readChanges(db, before.head, 10);
      expect(written.map((r) => [r.type, r.name, r.data])).toEqual([
        ["record.text_changed", "alice.acme", { key: "retried" }],
      ]);
      for (let i = 0; i < 200 && heard.length === 0; i++) await sleep(10);
      expect(heard).toEqual([String(written[0]?.id)]);
    } finally {
      await subscription.close();
    }
  });

  it("adds nothing when the whole chain is read again", async () => {
    const db = chain.database.db;
    const before = await readChanges(db, 0, 1000);
    // Every stream back to its first ledger, as after a restore from an old backup.
    await db.update(streams).set({ nextLedger: 1, cursor: null });
    const again = indexerFor(chain.devnet, db);
    await again.init();
    await runUntilIdle(again);
    expect(await readChanges(db, 0, 1000)).toEqual(before);
  });
});
