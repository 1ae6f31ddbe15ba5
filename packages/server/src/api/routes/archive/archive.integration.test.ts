// The archive, status and stats routes over the indexed demo devnet, on PGlite and on PostgreSQL.
import type { NamingDevnet } from "@namereg/devnet";
import { nameNode } from "@namereg/protocol";
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { FEATURE_DATABASE_KINDS, type TestDatabase } from "../../../../test/fixtures/database.ts";
import { indexDemo } from "../../../../test/fixtures/demo.ts";
import { RpcClient } from "../../../chain/rpc-client.ts";
import { coverageOf, readIndexerSnapshot } from "../../../db/coverage.ts";
import { events } from "../../../db/tables.ts";
import { type App, buildApp } from "../../app.ts";

type EventRow = typeof events.$inferSelect;

interface Page {
  events: { id: string; contractId: string; topics: string[]; data: string }[];
  nextCursor: string | null;
  hasMore: boolean;
  truncated: boolean;
  coverage: unknown;
}

/** The response form of an archive row: raw topics and data exactly as stored. */
function asEvent(row: EventRow) {
  return {
    id: row.id,
    contractId: row.contractId,
    txHash: row.txHash,
    ledger: row.ledger,
    at: row.at?.toISOString() ?? null,
    ingestedAt: row.ingestedAt.toISOString(),
    type: row.type,
    topics: row.topics,
    data: row.value,
    inSuccessfulContractCall: row.inSuccessfulContractCall,
    transactionIndex: row.transactionIndex,
    operationIndex: row.operationIndex,
  };
}

for (const kind of FEATURE_DATABASE_KINDS) {
  describe(`archive routes on ${kind}`, () => {
    let devnet: NamingDevnet;
    let database: TestDatabase;
    let app: App;
    let archive: EventRow[];
    /** The app's clock stands still just after indexing, so freshness cannot depend on how long tests take. */
    let indexedAt: Date;

    beforeAll(async () => {
      ({ devnet, database } = await indexDemo(kind));
      indexedAt = new Date();
      archive = await database.db.select().from(events).orderBy(asc(events.id));
      const rpc = new RpcClient(devnet.rpcUrl, { retries: 0 });
      app = await buildApp({
        config: testConfig(),
        db: database,
        redis: null,
        chain: { head: () => rpc.getLatestLedger() },
        now: () => indexedAt,
      });
    });
    afterAll(async () => {
      await app?.close();
      await devnet?.stop();
      await database?.close();
    });

    const get = async (url: string) => {
      const response = await app.inject({ url });
      return { statusCode: response.statusCode, body: response.json() };
    };

    /** Follows nextCursor while hasMore, checking each page's flags on the way. */
    async function allPages(query: string, limit: number): Promise<{ pages: Page[]; ids: string[] }> {
      const pages: Page[] = [];
      let cursor: string | null = null;
      do {
        const after: string = cursor === null ? "" : `&cursor=${cursor}`;
        const { statusCode, body } = await get(`/v1/events?limit=${limit}${query}${after}`);
        expect(statusCode).toBe(200);
        const page = body as Page;
        expect(page.truncated).toBe(page.hasMore);
        expect(page.nextCursor === null).toBe(!page.hasMore);
        if (page.hasMore) expect(page.events).toHaveLength(limit);
        pages.push(page);
        cursor = page.nextCursor;
      } while (cursor !== null);
      return { pages, ids: pages.flatMap((p) => p.events.map((e) => e.id)) };
    }

    it("pages through the whole archive in chain order, each event as stored", async () => {
      expect(archive.length).toBe(33);
      const { pages } = await allPages("", 7);
      expect(pages.map((p) => p.events.length)).toEqual([7, 7, 7, 7, 5]);
      const served = pages.flatMap((p) => p.events);
      expect(served).toEqual(archive.map(asEvent));
      for (let i = 1; i < served.length; i++) {
        expect((served[i - 1]?.id ?? "") < (served[i]?.id ?? "")).toBe(true);
      }
      const coverage = coverageOf(await readIndexerSnapshot(database.replica), indexedAt);
      expect(coverage.complete).toBe(true);
      expect(pages[0]?.coverage).toEqual(coverage);
    });

    it("ends on a full page without promising more", async () => {
      // 33 events in pages of 11.
      const { pages } = await allPages("", 11);
      expect(pages.map((p) => [p.events.length, p.hasMore])).toEqual([
        [11, true],
        [11, true],
        [11, false],
      ]);
    });

    it("filters by subject, given as a name or as its node, and the cursor serves both spellings", async () => {
      const node = nameNode("alice", "acme");
      const expected = archive.filter((r) => r.subject === node).map((r) => r.id);
      expect(expected.length).toBeGreaterThan(2);
      const { ids } = await allPages("&subject=alice.acme", 2);
      expect(ids).toEqual(expected);
      expect((await allPages(`&subject=${node}`, 100)).ids).toEqual(expected);

      const first = (await get("/v1/events?limit=1&subject=alice.acme")).body as Page;
      const next = await get(`/v1/events?limit=100&subject=${node}&cursor=${first.nextCursor}`);
      expect(next.statusCode).toBe(200);
      expect((next.body as Page).events.map((e) => e.id)).toEqual(expected.slice(1));
    });

    it("filters by namespace", async () => {
      const expected = archive.filter((r) => r.namespace === "acme").map((r) => r.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(archive.length);
      expect((await allPages("&namespace=acme", 5)).ids).toEqual(expected);
    });

    it("filters by emitting contract, alone and combined with other filters", async () => {
      const registry = devnet.contracts.registry;
      const expected = archive.filter((r) => r.contractId === registry).map((r) => r.id);
      expect(expected.length).toBeGreaterThan(0);
      const { pages, ids } = await allPages(`&contractId=${registry}`, 3);
      expect(ids).toEqual(expected);
      expect(pages.flatMap((p) => p.events).every((e) => e.contractId === registry)).toBe(true);

      const registrar = devnet.demo?.namespaces.acme.registrar ?? "";
      const both = archive
        .filter((r) => r.contractId === registrar && r.namespace === "acme")
        .map((r) => r.id);
      expect(both.length).toBeGreaterThan(0);
      expect((await allPages(`&contractId=${registrar}&namespace=acme`, 4)).ids).toEqual(both);
    });

    it("filters by transaction hash, in either case, combined with other filters; its cursor keeps to it", async () => {
      // The transaction that emitted the most events: a filter that matched by anything else would show more.
      const byTx = new Map<string, string[]>();
      for (const r of archive) byTx.set(r.txHash, [...(byTx.get(r.txHash) ?? []), r.id]);
      const [hash, expected] = [...byTx].sort(([, a], [, b]) => b.length - a.length)[0] ?? ["", []];
      expect(expected.length).toBeGreaterThan(1);
      expect(byTx.size).toBeGreaterThan(1);
      const { ids, pages } = await allPages(`&txHash=${hash}`, 1);
      expect(ids).toEqual(expected);
      expect(pages.flatMap((p) => p.events).every((e) => (e as { txHash?: string }).txHash === hash)).toBe(
        true,
      );
      expect((await allPages(`&txHash=${hash.toUpperCase()}`, 100)).ids).toEqual(expected);
      const contract = archive.find((r) => r.id === expected[0])?.contractId ?? "";
      expect((await allPages(`&txHash=${hash}&contractId=${contract}`, 100)).ids).toEqual(
        archive.filter((r) => r.txHash === hash && r.contractId === contract).map((r) => r.id),
      );
      // A cursor issued for a transaction is refused without it; one issued before the filter existed (no txHash)
      // keeps its fingerprint, so it still serves its own filters.
      const first = (await get(`/v1/events?limit=1&txHash=${hash}`)).body as Page;
      expect((await get(`/v1/events?cursor=${first.nextCursor}`)).statusCode).toBe(400);
      expect(
        (await get(`/v1/events?txHash=${hash.toUpperCase()}&cursor=${first.nextCursor}`)).statusCode,
      ).toBe(200);
      expect(await get(`/v1/events?txHash=${"0".repeat(64)}`)).toMatchObject({
        statusCode: 200,
        body: { events: [], hasMore: false },
      });
      for (const bad of ["abc", "g".repeat(64), "0".repeat(65)]) {
        expect(await get(`/v1/events?txHash=${bad}`)).toEqual({
          statusCode: 400,
          body: { error: "invalid_request", detail: "txHash: must be a transaction hash (64 hex digits)" },
        });
      }
    });

    it("answers a well-formed filter that matches nothing with an empty last page", async () => {
      const nobody = await get(`/v1/events?subject=${nameNode("nobody", "acme")}`);
      expect(nobody.statusCode).toBe(200);
      expect(nobody.body).toMatchObject({ events: [], nextCursor: null, hasMore: false, truncated: false });
      expect((await get("/v1/events?namespace=nosuchns")).body).toMatchObject({ events: [], hasMore: false });
      expect((await get("/v1/events?subject=999999")).body).toMatchObject({ events: [], hasMore: false });
    });

    it("rejects a cursor presented with other filters, and a malformed one", async () => {
      const first = (await get("/v1/events?limit=2&namespace=acme")).body as Page;
      expect(first.nextCursor).not.toBeNull();
      const belongs = {
        statusCode: 400,
        body: {
          error: "invalid_request",
          detail:
            "cursor: belongs to other filters; repeat the contractId, subject, namespace and txHash it was issued with",
        },
      };
      expect(await get(`/v1/events?namespace=plain&cursor=${first.nextCursor}`)).toEqual(belongs);
      expect(await get(`/v1/events?cursor=${first.nextCursor}`)).toEqual(belongs);
      expect(await get(`/v1/events?namespace=acme&subject=acme&cursor=${first.nextCursor}`)).toEqual(belongs);
      // Another limit is not another filter.
      expect((await get(`/v1/events?limit=50&namespace=acme&cursor=${first.nextCursor}`)).statusCode).toBe(
        200,
      );

      const malformed = {
        statusCode: 400,
        body: {
          error: "invalid_request",
          detail: "cursor: is malformed; use a nextCursor from this endpoint unchanged",
        },
      };
      expect(await get("/v1/events?cursor=garbage!")).toEqual(malformed);
      expect(await get(`/v1/events?namespace=acme&cursor=${first.nextCursor?.slice(0, -3)}`)).toEqual(
        malformed,
      );
      expect(await get("/v1/events?cursor=")).toEqual(malformed);
    });

    it("rejects a limit outside 1 to 1000", async () => {
      const outOfRange = {
        statusCode: 400,
        body: { error: "invalid_request", detail: "limit: must be an integer from 1 to 1000" },
      };
      expect(await get("/v1/events?limit=0")).toEqual(outOfRange);
      expect(await get("/v1/events?limit=1001")).toEqual(outOfRange);
      expect(await get("/v1/events?limit=-5")).toEqual(outOfRange);
      expect((await get("/v1/events?limit=1000")).body).toMatchObject({ hasMore: false });
      expect(((await get("/v1/events")).body as Page).events).toHaveLength(33);
    });

    it("reports every component operational over the indexed demo", async () => {
      const head = devnet.chain.latest.sequence;
      const { processedAt } = await readIndexerSnapshot(database.replica);
      const { statusCode, body } = await get("/v1/status");
      expect(statusCode).toBe(200);
      expect(body).toEqual({
        ledger: head,
        components: [
          { name: "Database", state: "operational" },
          { name: "the service RPC", state: "operational", ledger: head },
          {
            name: "Indexer",
            state: "operational",
            ledger: head,
            lag: 0,
            processedAt: processedAt?.toISOString(),
            deadLetters: 0,
          },
        ],
      });
    });

    it("counts the demo's namespaces, active names and existing subnames", async () => {
      // acme, forsale, plain, winner; alice, bob and old (expired, not reclaimed) .acme and carol.plain, not the
      // reclaimed gone.acme; pay.alice.acme, not the deleted old.alice.acme.
      expect(await get("/v1/stats")).toEqual({
        statusCode: 200,
        body: { namespaces: 4, names: 4, subnames: 1, ledger: devnet.chain.latest.sequence },
      });
    });

    it("serves the same coverage on its own", async () => {
      const { statusCode, body } = await get("/v1/coverage");
      expect(statusCode).toBe(200);
      expect(body).toEqual(coverageOf(await readIndexerSnapshot(database.replica), indexedAt));
      expect(body).toMatchObject({ complete: true, processedLedger: devnet.chain.latest.sequence, gaps: [] });
    });
  });
}
