// The indexer against a running devnet, on PGlite and on a real PostgreSQL database.
import { demoKeypair, type NamingDevnet, settlingWallet, startNamingDevnet } from "@namereg/devnet";
import { encodeEvent, nameNode, namespaceNode, RegistryFns, subnameNode } from "@namereg/protocol";
import { xdr } from "@stellar/stellar-sdk";
import { asc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  emptyTestDatabase,
  TEST_DATABASE_KINDS,
  type TestDatabase,
} from "../../test/fixtures/database.ts";
import { indexerFor, runUntilIdle } from "../../test/fixtures/demo.ts";
import { RpcClient } from "../chain/rpc-client.ts";
import { coverageOf, readIndexerSnapshot } from "../db/coverage.ts";
import {
  claims,
  deadLetters,
  events,
  feeReceipts,
  nameHistory,
  names,
  namespaces,
  primaryNames,
  resolverRecords,
  subnames,
  trackedContracts,
} from "../db/tables.ts";
import { FencedError, takeWriterEpoch } from "../db/writer-fence.ts";

const pk = (role: Parameters<typeof demoKeypair>[0]) => demoKeypair(role).publicKey();

/** Every event the devnet holds for `contractIds`, paged through raw getEvents. */
async function devnetEventIds(devnet: NamingDevnet, contractIds: string[]): Promise<string[]> {
  const rpc = new RpcClient(devnet.rpcUrl);
  const ids: string[] = [];
  for (let i = 0; i < contractIds.length; i += 5) {
    const filters = [{ type: "contract" as const, contractIds: contractIds.slice(i, i + 5) }];
    let page = await rpc.getEvents({ startLedger: devnet.deploymentLedger, filters, limit: 10_000 });
    for (;;) {
      ids.push(...page.events.map((e) => e.id));
      const done =
        page.events.length < 10_000 &&
        BigInt(page.cursor.split("-")[0] ?? "0") >> 32n >= BigInt(page.latestLedger);
      if (done) break;
      page = await rpc.getEvents({ cursor: page.cursor, filters, limit: 10_000 });
    }
  }
  return ids.sort();
}

for (const kind of TEST_DATABASE_KINDS) {
  describe(`indexer on ${kind}`, () => {
    let devnet: NamingDevnet | undefined;
    // One database for the kind, emptied before each test: a new PGlite per test cost more than most tests.
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(kind);
    });
    beforeEach(async () => {
      await emptyTestDatabase(database);
    });
    afterEach(async () => {
      await devnet?.stop();
      devnet = undefined;
    });
    afterAll(async () => {
      await database.close();
    });

    it("indexes the demo scenario: the archive matches the devnet's events one for one", async () => {
      devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 0 });
      const db = database.db;
      // Concurrent streams where the database allows them (row locks keep concurrent batches consistent).
      const indexer = indexerFor(devnet, db, { concurrency: kind === "postgres" ? 3 : 1 });
      await indexer.init();
      await runUntilIdle(indexer);

      const tracked = await db.select().from(trackedContracts);
      const demo = devnet.demo;
      if (demo === undefined) throw new Error("no demo");
      const expectedContracts = [
        ...Object.values(devnet.contracts).filter((id) => id !== devnet?.contracts.nativeToken),
        ...Object.values(demo.namespaces).flatMap((ns) => [
          ns.registrar,
          ...(ns.resolver ? [ns.resolver] : []),
        ]),
      ];
      expect(tracked.map((t) => t.contractId).sort()).toEqual([...expectedContracts].sort());
      const archived = (await db.select({ id: events.id }).from(events).orderBy(asc(events.id))).map(
        (r) => r.id,
      );
      expect(archived).toEqual(await devnetEventIds(devnet, expectedContracts));
      // 4 ns_v1, fee_cfg, dep_res, chn_pol, 6 name_v1, pay_v1, 2 text_v1, chn_v1, set_pri, disp_v1, 3 sub_v1,
      // sub_pol, 3 clm_ann, 3 fee_paid, clm_obj, clm_awd, fee_done.
      expect(archived.length).toBe(33);
      expect(await db.select().from(deadLetters)).toEqual([]);

      const ns = await db.select().from(namespaces).orderBy(asc(namespaces.label));
      expect(ns.map((n) => [n.label, n.owner, n.method])).toEqual([
        ["acme", pk("acme"), "reserved"],
        ["forsale", pk("seller"), "reserved"],
        ["plain", pk("plain"), "reserved"],
        ["winner", pk("winner"), "allocate"],
      ]);
      const acme = ns.find((n) => n.label === "acme");
      expect(acme).toMatchObject({
        resolver: demo.namespaces.acme.resolver,
        chainNetworks: ["ethereum", "bitcoin"],
        issuedNames: 3,
      });
      expect(ns.find((n) => n.label === "plain")).toMatchObject({
        resolver: null,
        subnamePolicy: "creation_disabled",
      });

      const byLabel = new Map((await db.select().from(names)).map((n) => [`${n.label}.${n.namespace}`, n]));
      expect(byLabel.get("alice.acme")).toMatchObject({
        holder: pk("alice"),
        expiresAt: null,
        active: true,
        generation: 1n,
      });
      expect(byLabel.get("bob.acme")?.expiresAt).toBeGreaterThan(BigInt(Math.floor(Date.now() / 1000)));
      expect(byLabel.get("old.acme")?.expiresAt).toBeLessThan(BigInt(Math.floor(Date.now() / 1000)));
      expect(byLabel.get("gone.acme")).toMatchObject({ active: false });
      expect(byLabel.get("carol.plain")).toMatchObject({ holder: pk("carol"), active: true });
      expect(byLabel.get("alice.acme")?.issuedAt).toBeInstanceOf(Date);

      const gone = await db
        .select()
        .from(nameHistory)
        .where(eq(nameHistory.node, nameNode("gone", "acme")))
        .orderBy(asc(nameHistory.id));
      expect(gone.map((h) => h.action)).toEqual(["issued", "reclaimed"]);
      expect(gone[0]?.at).toBeInstanceOf(Date);

      expect(await db.select().from(primaryNames)).toMatchObject([
        { address: pk("alice"), name: "alice.acme" },
      ]);
      const [aliceRecords] = await db
        .select()
        .from(resolverRecords)
        .where(eq(resolverRecords.node, nameNode("alice", "acme")));
      expect(aliceRecords).toMatchObject({
        paymentAddress: pk("alice"),
        paymentMemo: "acme-alice",
        chainNetworks: ["ethereum"],
        displayFor: pk("alice"),
      });
      expect([...(aliceRecords?.textKeys ?? [])].sort()).toEqual(["avatar", "url"]);
      const subs = await db.select().from(subnames).orderBy(asc(subnames.child));
      expect(subs.map((s) => [s.child, s.exists, s.parentLabel])).toEqual([
        ["old", false, "alice"],
        ["pay", true, "alice"],
      ]);
      expect(subs.find((s) => s.child === "pay")?.node).toBe(subnameNode("pay", "alice", "acme"));
      const claimRows = await db.select().from(claims).orderBy(asc(claims.id));
      expect(claimRows.map((c) => [c.label, c.state])).toEqual([
        ["newco", "announced"],
        ["contested", "objected"],
        ["winner", "awarded"],
      ]);
      expect(claimRows[2]?.awardedAt).not.toBeNull();
      const receipts = new Map((await db.select().from(feeReceipts)).map((r) => [r.label, r]));
      expect(receipts.get("newco")).toMatchObject({ outcome: "Held", amount: 1_000_000_000n });
      expect(receipts.get("winner")).toMatchObject({ outcome: "Awarded", treasuryAmount: 1_000_000_000n });

      const [aliceEvent] = await db
        .select()
        .from(events)
        .where(eq(events.subject, nameNode("alice", "acme")))
        .limit(1);
      expect(aliceEvent).toMatchObject({ namespace: "acme", type: "name_v1" });
      expect(aliceEvent?.at).toBeInstanceOf(Date);
      expect(aliceEvent?.ingestedAt.getTime()).toBeGreaterThan(
        aliceEvent?.at?.getTime() ?? Number.POSITIVE_INFINITY,
      );

      const snapshot = await readIndexerSnapshot(db);
      expect(snapshot.processedLedger).toBe(snapshot.headLedger);
      expect(coverageOf(snapshot, new Date()).complete).toBe(true);

      // A second run over the same chain adds nothing (replays are harmless).
      const again = indexerFor(devnet, db);
      await again.init();
      await runUntilIdle(again);
      expect((await db.select({ id: events.id }).from(events)).length).toBe(archived.length);
    });

    it("follows the registrar an allocation deployed even when it was replaced before the back-fill", async () => {
      devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 0 });
      const net = devnet;
      // plain, not acme: acme is locked, and a locked namespace refuses a new registrar.
      const original = net.demo?.namespaces.plain.registrar ?? "";
      const wallet = settlingWallet(net);
      const { value: replacement } = await wallet.invoke(
        demoKeypair("plain"),
        net.contracts.registry,
        RegistryFns.deploy_registrar,
        {
          node: namespaceNode("plain"),
        },
      );
      expect(replacement).not.toBe(original);
      const indexer = indexerFor(net, database.db);
      await indexer.init();
      await runUntilIdle(indexer);
      const tracked = new Map(
        (await database.db.select().from(trackedContracts)).map((t) => [t.contractId, t]),
      );
      expect(tracked.get(original)).toMatchObject({ role: "registrar", retired: true });
      expect(tracked.get(replacement)).toMatchObject({ role: "registrar", retired: false });
      const [plain] = await database.db.select().from(namespaces).where(eq(namespaces.label, "plain"));
      expect(plain?.registrar).toBe(replacement);
      // carol's history lives in the original registrar's events: it is in the mirror.
      const [carol] = await database.db
        .select()
        .from(names)
        .where(eq(names.node, nameNode("carol", "plain")));
      expect(carol).toMatchObject({ holder: pk("carol"), active: true });
      expect(await database.db.select().from(deadLetters)).toEqual([]);
    });

    it("dead-letters an undecodable event but archives it and keeps going", async () => {
      devnet = await startNamingDevnet({ scenario: "none", closeIntervalMs: 0 });
      const { registry } = devnet.contracts;
      devnet.chain.injectEvents([
        {
          contractId: registry,
          topics: [xdr.ScVal.scvSymbol("ns_v1"), xdr.ScVal.scvBytes(Buffer.alloc(31))],
          value: xdr.ScVal.scvVoid(),
        },
      ]);
      devnet.closeLedger();
      const indexer = indexerFor(devnet, database.db);
      await indexer.init();
      await runUntilIdle(indexer);
      const letters = await database.db.select().from(deadLetters);
      expect(letters).toHaveLength(1);
      expect(letters[0]?.error).toMatch(/ns_v1/);
      expect(await database.db.select({ id: events.id }).from(events)).toHaveLength(1);
      expect((await readIndexerSnapshot(database.db)).deadLetters).toBe(1);
    });

    it("while idle, starts its next pass as soon as a new ledger closes (head poll), not after the idle wait", async () => {
      devnet = await startNamingDevnet({ scenario: "none", closeIntervalMs: 0 });
      const db = database.db;
      // An idle wait of ten minutes: only the head poll can bring the new ledger in while this test runs.
      const indexer = indexerFor(devnet, db, { pollMs: 600_000, headPollMs: 20 });
      await indexer.init();
      await runUntilIdle(indexer);
      // Counts the passes `run` makes, so the new ledger closes only once its first pass is over and waiting.
      let passes = 0;
      const pass = indexer.runOnce.bind(indexer);
      indexer.runOnce = async () => {
        const progressed = await pass();
        passes++;
        return progressed;
      };
      const stop = new AbortController();
      const running = indexer.run(stop.signal);
      try {
        while (passes === 0) await new Promise((resolve) => setTimeout(resolve, 10));
        devnet.chain.injectEvents([
          {
            contractId: devnet.contracts.registry,
            topics: [xdr.ScVal.scvSymbol("ns_v1"), xdr.ScVal.scvBytes(Buffer.alloc(31))],
            value: xdr.ScVal.scvVoid(),
          },
        ]);
        devnet.closeLedger();
        let archived = 0;
        for (let look = 0; look < 1_000 && archived === 0; look++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          archived = (await db.select({ id: events.id }).from(events)).length;
        }
        // Archived by a pass that started after the first one was over: only the head poll could start it.
        expect(archived).toBe(1);
      } finally {
        stop.abort();
        await running;
      }
    });

    it("archives an older event and its new companion, applying the change once", async () => {
      devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 0 });
      const registrar = devnet.demo?.namespaces.acme.registrar ?? "";
      const node = nameNode("alice", "acme");
      const renewal = encodeEvent({
        type: "name_v1",
        node,
        generation: 1n,
        data: { label: "alice", action: "transfer", holder: pk("bob"), address: pk("alice"), expiresAt: 0n },
      });
      // A legacy layout (un-versioned topic) immediately precedes its v1 companion in one transaction.
      devnet.chain.injectEvents([
        {
          contractId: registrar,
          topics: [xdr.ScVal.scvSymbol("name"), xdr.ScVal.scvBytes(Buffer.from(node, "hex"))],
          value: renewal.data,
          tx: "legacy",
        },
        { contractId: registrar, topics: renewal.topics, value: renewal.data, tx: "legacy" },
      ]);
      devnet.closeLedger();
      const indexer = indexerFor(devnet, database.db);
      await indexer.init();
      await runUntilIdle(indexer);
      const both = await database.db
        .select()
        .from(events)
        .where(
          eq(
            events.txHash,
            (await database.db.select().from(events).where(eq(events.type, "name")))[0]?.txHash ?? "",
          ),
        );
      expect(both.map((e) => e.type).sort()).toEqual(["name", "name_v1"]);
      const history = await database.db
        .select()
        .from(nameHistory)
        .where(eq(nameHistory.node, node))
        .orderBy(asc(nameHistory.id));
      expect(history.map((h) => h.action)).toEqual(["issued", "transferred"]);
      expect((await database.db.select().from(names).where(eq(names.node, node)))[0]?.holder).toBe(pk("bob"));
      expect(await database.db.select().from(deadLetters)).toEqual([]);
    });

    it("records a gap when the start is outside retention and never reports complete coverage", async () => {
      devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 0, retentionLedgers: 10 });
      const indexer = indexerFor(devnet, database.db);
      await indexer.init();
      await runUntilIdle(indexer);
      const snapshot = await readIndexerSnapshot(database.db);
      expect(snapshot.gaps.length).toBe(4);
      expect(snapshot.gaps[0]).toMatchObject({
        fromLedger: devnet.deploymentLedger,
        reason: "outside the RPC's retention window",
      });
      expect(snapshot.gaps[0]?.toLedger).toBeGreaterThanOrEqual(devnet.deploymentLedger);
      expect(snapshot.processedLedger).toBe(snapshot.headLedger);
      expect(coverageOf(snapshot, new Date()).complete).toBe(false);
    });

    it("merges a retention cut that slides during the back-fill into one gap per contract", async () => {
      devnet = await startNamingDevnet({ scenario: "none", closeIntervalMs: 0 });
      for (let i = 0; i < 20; i++) devnet.closeLedger();
      devnet.setFaults({ retentionLedgers: 10 });
      const indexer = indexerFor(devnet, database.db);
      await indexer.init();
      await indexer.runOnce();
      const first = await readIndexerSnapshot(database.db);
      expect(first.gaps.map((g) => g.fromLedger)).toEqual([1, 1, 1, 1].map(() => devnet?.deploymentLedger));
      const firstTo = first.gaps[0]?.toLedger ?? 0;
      // The window slides on before the next request: the stream's next ledger falls out of it as well.
      for (let i = 0; i < 5; i++) devnet.closeLedger();
      await indexer.runOnce();
      const merged = await readIndexerSnapshot(database.db);
      expect(merged.gaps).toHaveLength(4);
      expect(merged.gaps.map((g) => g.toLedger)).toEqual([1, 1, 1, 1].map(() => firstTo + 5));
      expect(merged.gaps.map((g) => g.fromLedger)).toEqual([1, 1, 1, 1].map(() => devnet?.deploymentLedger));
    });

    it("records since when its own RPC reads fail, and clears it on the first success", async () => {
      devnet = await startNamingDevnet({ scenario: "none", closeIntervalMs: 0 });
      let now = new Date("2030-01-01T00:00:00Z");
      const failedAt = now;
      const indexer = indexerFor(devnet, database.db, { now: () => now });
      await indexer.init();
      await runUntilIdle(indexer);
      expect((await readIndexerSnapshot(database.db)).rpcFailingSince).toBeNull();
      devnet.setFaults({ errorRate: 1 });
      await expect(indexer.runOnce()).rejects.toThrow();
      now = new Date(now.getTime() + 10_000);
      await expect(indexer.runOnce()).rejects.toThrow();
      // The first failure of the run is kept, so the status route can tell how long reads have failed.
      expect((await readIndexerSnapshot(database.db)).rpcFailingSince).toEqual(failedAt);
      devnet.setFaults({ errorRate: 0 });
      await indexer.runOnce();
      expect((await readIndexerSnapshot(database.db)).rpcFailingSince).toBeNull();
    });

    it("fences a deposed writer: its batch fails inside the transaction and nothing of it lands", async () => {
      devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 0 });
      const db = database.db;
      const deposed = indexerFor(devnet, db, { epoch: await takeWriterEpoch(db) });
      await deposed.init();
      // A successor took the lock (and a new epoch) while the first writer still believes it is the writer.
      const successor = indexerFor(devnet, db, { epoch: await takeWriterEpoch(db) });
      await successor.init();
      await expect(deposed.runOnce()).rejects.toBeInstanceOf(FencedError);
      expect(await db.select().from(events)).toEqual([]);
      await runUntilIdle(successor);
      const archived = (await db.select({ id: events.id }).from(events)).length;
      expect(archived).toBeGreaterThan(30);
      // The deposed writer keeps failing, even when it sees work the successor has not done yet.
      devnet.chain.injectEvents([
        { contractId: devnet.contracts.registry, topics: ["AAAADwAAAAdub3RfbmV3AA=="], value: "AAAAAQ==" },
      ]);
      devnet.closeLedger();
      await expect(deposed.runOnce()).rejects.toBeInstanceOf(FencedError);
      await expect(deposed.run(new AbortController().signal)).rejects.toBeInstanceOf(FencedError);
      const [dupes] = await database.query<{ n: string }>(
        "select count(*) - count(distinct (event_id, node)) as n from name_history",
      );
      expect(Number(dupes?.n)).toBe(0);
    });

    it("turns coverage incomplete 120 s after the head stops advancing (injected clock)", async () => {
      devnet = await startNamingDevnet({ scenario: "none", closeIntervalMs: 0 });
      let now = new Date("2030-01-01T00:00:00Z");
      const indexer = indexerFor(devnet, database.db, { now: () => now });
      await indexer.init();
      await runUntilIdle(indexer);
      expect(coverageOf(await readIndexerSnapshot(database.db), now).complete).toBe(true);
      devnet.setFaults({ freezeHead: true });
      now = new Date(now.getTime() + 100_000);
      devnet.closeLedger();
      await indexer.runOnce();
      expect(coverageOf(await readIndexerSnapshot(database.db), now).complete).toBe(true);
      now = new Date(now.getTime() + 21_000);
      await indexer.runOnce();
      expect(coverageOf(await readIndexerSnapshot(database.db), now).complete).toBe(false);
      // The head moves again: fresh observation and progress make it complete once more.
      devnet.setFaults({ freezeHead: false });
      devnet.closeLedger();
      await indexer.runOnce();
      expect(coverageOf(await readIndexerSnapshot(database.db), now).complete).toBe(true);
    });
  });
}
