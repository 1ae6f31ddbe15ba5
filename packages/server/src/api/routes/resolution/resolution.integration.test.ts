// The resolution routes over the indexed demo devnet, on PGlite and on PostgreSQL: resolve (and its cache's
// invalidation by the indexer's change notifications), name records, live resolver records, reverse, names by
// holder and history.

import { DEMO_TEXT, demoKeypair, type NamingDevnet, settlingWallet, Wallet } from "@namereg/devnet";
import { LookupFns, nameNode, namespaceNode, RegistrarFns, RegistryFns } from "@namereg/protocol";
import { Keypair } from "@stellar/stellar-sdk";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { TEST_DATABASE_KINDS, type TestDatabase } from "../../../../test/fixtures/database.ts";
import { indexDemo, runUntilIdle } from "../../../../test/fixtures/demo.ts";
import { ChainClient } from "../../../chain/chain-client.ts";
import { RpcClient } from "../../../chain/rpc-client.ts";
import { nameHistory, names, namespaceProfiles } from "../../../db/tables.ts";
import type { Indexer } from "../../../indexer/indexer.ts";
import { type App, buildApp } from "../../app.ts";
import { LABEL_RULE } from "../path-params.ts";

for (const kind of TEST_DATABASE_KINDS) {
  describe(`resolution routes on ${kind}`, () => {
    let devnet: NamingDevnet;
    let database: TestDatabase;
    let indexer: Indexer;
    let app: App;
    /** Nodes the indexer changed since the last reset; each batch notifies them itself on commit. */
    let changed = new Set<string>();
    let indexedAt: Date;
    const pk = (role: Parameters<typeof demoKeypair>[0]) => demoKeypair(role).publicKey();

    const build = () =>
      buildApp({
        config: testConfig({ PRIMARY_ID: devnet.contracts.primary, LOOKUP_ID: devnet.contracts.lookup }),
        db: database,
        redis: null,
        chain: { head: () => new RpcClient(devnet.rpcUrl, { retries: 0 }).getLatestLedger() },
        now: () => indexedAt,
        chainClient: new ChainClient(devnet.rpcUrl, devnet.networkPassphrase),
      });

    beforeAll(async () => {
      ({ devnet, database, indexer } = await indexDemo(kind, {
        onBatch: (info) => {
          for (const node of info.changedNodes) changed.add(node);
        },
      }));
      indexedAt = new Date();
      await database.db.insert(namespaceProfiles).values({ label: "acme", displayName: "Acme" });
      app = await build();
    });
    afterAll(async () => {
      await app?.close();
      await devnet?.stop();
      await database?.close();
    });

    const get = async (url: string, on: App = app) => {
      const response = await on.inject({ url });
      return { statusCode: response.statusCode, body: response.json() };
    };
    const nameRow = async (label: string, namespace = "acme") => {
      const [row] = await database.db
        .select()
        .from(names)
        .where(eq(names.node, nameNode(label, namespace)));
      if (row === undefined) throw new Error(`${label}.${namespace} is not in the mirror`);
      return row;
    };
    const iso = (seconds: bigint | null) =>
      seconds === null ? null : new Date(Number(seconds) * 1000).toISOString();

    describe("GET /v1/resolve", () => {
      it("resolves a permanent name to its holder and issuance ledger", async () => {
        const alice = await nameRow("alice");
        const response = await app.inject({ url: "/v1/resolve/acme/alice" });
        expect(response.statusCode).toBe(200);
        expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
        expect(response.json()).toEqual({
          name: "alice.acme",
          account: pk("alice"),
          ownership: "permanent",
          storage: "live",
          expires_at: null,
          ledger: alice.issuedLedger,
        });
        // Served again from the cache, identically.
        expect(await get("/v1/resolve/acme/alice")).toEqual({ statusCode: 200, body: response.json() });
      });

      it("resolves a timed name with its expiry", async () => {
        const bob = await nameRow("bob");
        expect(bob.expiresAt).not.toBeNull();
        expect(await get("/v1/resolve/acme/bob")).toEqual({
          statusCode: 200,
          body: {
            name: "bob.acme",
            account: pk("bob"),
            ownership: "expiring",
            storage: "live",
            expires_at: iso(bob.expiresAt),
            ledger: bob.issuedLedger,
          },
        });
      });

      it("lower-cases path segments before validating them", async () => {
        const expected = await get("/v1/resolve/acme/alice");
        expect(await get("/v1/resolve/ACME/Alice")).toEqual(expected);
      });

      it("answers name_expired for a timed name past its expiry, also when cached", async () => {
        const expired = { statusCode: 404, body: { error: "name_expired", name: "old.acme" } };
        expect(await get("/v1/resolve/acme/old")).toEqual(expired);
        expect(await get("/v1/resolve/acme/old")).toEqual(expired);
      });

      it("answers name_not_found for reclaimed, unknown and namespace-less names", async () => {
        const notFound = (name: string) => ({ statusCode: 404, body: { error: "name_not_found", name } });
        expect(await get("/v1/resolve/acme/gone")).toEqual(notFound("gone.acme"));
        expect(await get("/v1/resolve/acme/nobody")).toEqual(notFound("nobody.acme"));
        expect(await get("/v1/resolve/nowhere/alice")).toEqual(notFound("alice.nowhere"));
      });

      it("rejects a malformed segment with invalid_name, echoing it", async () => {
        expect(await get("/v1/resolve/acme/al_ice")).toEqual({
          statusCode: 400,
          body: { error: "invalid_name", detail: `label: ${LABEL_RULE}` },
        });
        expect(await get("/v1/resolve/-acme/alice")).toEqual({
          statusCode: 400,
          body: { error: "invalid_name", detail: `namespace: ${LABEL_RULE}` },
        });
        expect((await get(`/v1/resolve/acme/${"a".repeat(64)}`)).body).toMatchObject({
          error: "invalid_name",
        });
      });
    });

    describe("GET /v1/names", () => {
      it("returns the full record with the operator's display name and the resolution count", async () => {
        const carol = await nameRow("carol", "plain");
        const record = (resolutions: number) => ({
          statusCode: 200,
          body: {
            name: "carol.plain",
            namespace: "plain",
            holder: pk("carol"),
            // No expiry, but plain is not locked: its owner can still reclaim carol.plain.
            ownership: "revocable",
            storage: "live",
            expiresAt: null,
            resolutions,
            issuedLedger: carol.issuedLedger,
            issuedAt: carol.issuedAt?.toISOString(),
            txHash: carol.txHash,
            operator: pk("plain"),
            // No profile: the namespace label.
            operatorName: "plain",
          },
        });
        expect(await get("/v1/names/plain/carol")).toEqual(record(0));
        for (let i = 0; i < 3; i++) expect((await get("/v1/resolve/plain/carol")).statusCode).toBe(200);
        // Failed resolutions are not counted.
        await get("/v1/resolve/plain/nobody");
        expect(await get("/v1/names/plain/carol")).toEqual(record(3));

        // Closing flushes the counts; another app reads them back from name_stats.
        await app.close();
        app = await build();
        expect(await get("/v1/names/plain/carol")).toEqual(record(3));
        await get("/v1/resolve/plain/carol");
        expect(await get("/v1/names/plain/carol")).toEqual(record(4));
      });

      it("names the operator by its profile and shows a timed name's expiry", async () => {
        const bob = await nameRow("bob");
        const { statusCode, body } = await get("/v1/names/acme/bob");
        expect(statusCode).toBe(200);
        expect(body).toEqual({
          name: "bob.acme",
          namespace: "acme",
          holder: pk("bob"),
          ownership: "expiring",
          storage: "live",
          expiresAt: iso(bob.expiresAt),
          resolutions: expect.any(Number),
          issuedLedger: bob.issuedLedger,
          issuedAt: bob.issuedAt?.toISOString(),
          txHash: bob.txHash,
          operator: pk("acme"),
          operatorName: "Acme",
        });
      });

      it("tells an unknown namespace from a name that is not issued", async () => {
        const notIssued = (name: string) => ({ statusCode: 404, body: { error: "name_not_issued", name } });
        expect(await get("/v1/names/acme/nobody")).toEqual(notIssued("nobody.acme"));
        expect(await get("/v1/names/acme/gone")).toEqual(notIssued("gone.acme"));
        // docs/api.md "Resolution, records, reverse, names by holder, history": a timed name past its expiry is 404 name_expired here too; its history still answers.
        expect(await get("/v1/names/acme/old")).toEqual({
          statusCode: 404,
          body: { error: "name_expired", name: "old.acme" },
        });
        expect((await get("/v1/names/acme/old/history")).statusCode).toBe(200);
        expect(await get("/v1/names/nowhere/alice")).toEqual({
          statusCode: 404,
          body: { error: "namespace_not_found", namespace: "nowhere" },
        });
      });
    });

    describe("GET /v1/records", () => {
      it("reads alice's records live: pay-to address, text, display and primary name verified", async () => {
        const response = await app.inject({ url: "/v1/records/acme/alice" });
        expect(response.headers["cache-control"]).toBe("no-store");
        expect({ statusCode: response.statusCode, body: response.json() }).toEqual({
          statusCode: 200,
          body: {
            name: "alice.acme",
            node: nameNode("alice", "acme"),
            address: pk("alice"),
            text: { ...DEMO_TEXT },
            displayName: true,
            primaryName: true,
          },
        });
      });

      it("gives a name without a resolver payment the registrar's built-in address, as Lookup does", async () => {
        const lookup = await new Wallet({
          rpcUrl: devnet.rpcUrl,
          networkPassphrase: devnet.networkPassphrase,
        }).read(pk("admin"), devnet.contracts.lookup, LookupFns.lookup, { name: "bob.acme" });
        expect(lookup?.address).toBeDefined();
        expect(await get("/v1/records/acme/bob")).toEqual({
          statusCode: 200,
          body: {
            name: "bob.acme",
            node: nameNode("bob", "acme"),
            address: lookup?.address,
            text: {},
            displayName: false,
            primaryName: false,
          },
        });
      });

      it("answers every demo name's address exactly as the Lookup contract, with or without LOOKUP_ID", async () => {
        const wallet = new Wallet({ rpcUrl: devnet.rpcUrl, networkPassphrase: devnet.networkPassphrase });
        const direct = await buildApp({
          config: testConfig({ PRIMARY_ID: devnet.contracts.primary }),
          db: database,
          redis: null,
          now: () => indexedAt,
          chainClient: new ChainClient(devnet.rpcUrl, devnet.networkPassphrase),
        });
        try {
          for (const name of ["alice.acme", "bob.acme"]) {
            const [label, namespace] = name.split(".") as [string, string];
            const onChain = await wallet.read(pk("admin"), devnet.contracts.lookup, LookupFns.lookup, {
              name,
            });
            const viaLookup = await get(`/v1/records/${namespace}/${label}`);
            const viaRegistrar = await get(`/v1/records/${namespace}/${label}`, direct);
            expect({ name, address: viaLookup.body.address }).toEqual({ name, address: onChain?.address });
            expect(viaRegistrar.body).toEqual(viaLookup.body);
          }
        } finally {
          await direct.close();
        }
      });

      it("answers the spec's errors", async () => {
        expect(await get("/v1/records/plain/carol")).toEqual({
          statusCode: 409,
          body: { error: "no_resolver", namespace: "plain" },
        });
        expect(await get("/v1/records/acme/gone")).toEqual({
          statusCode: 404,
          body: { error: "name_not_found", name: "gone.acme" },
        });
        expect(await get("/v1/records/acme/old")).toEqual({
          statusCode: 404,
          body: { error: "name_expired", name: "old.acme" },
        });
        expect(await get("/v1/records/nowhere/alice")).toEqual({
          statusCode: 404,
          body: { error: "namespace_not_found", namespace: "nowhere" },
        });
      });

      it("answers 502 node_lookup_failed when the chain cannot be read", async () => {
        const offline = await buildApp({
          config: testConfig({ PRIMARY_ID: devnet.contracts.primary }),
          db: database,
          redis: null,
          now: () => indexedAt,
          chainClient: new ChainClient("http://127.0.0.1:9", devnet.networkPassphrase),
        });
        try {
          expect(await get("/v1/records/acme/alice", offline)).toEqual({
            statusCode: 502,
            body: { error: "node_lookup_failed" },
          });
        } finally {
          await offline.close();
        }
      });
    });

    describe("reverse and names by holder", () => {
      it("prefers the primary name, else the newest active name; skips expired and reclaimed ones", async () => {
        expect(await get(`/v1/reverse/${pk("alice")}`)).toEqual({
          statusCode: 200,
          body: { name: "alice.acme" },
        });
        // bob holds bob.acme, the expired old.acme and the reclaimed gone.acme.
        expect(await get(`/v1/reverse/${pk("bob")}`)).toEqual({
          statusCode: 200,
          body: { name: "bob.acme" },
        });
        expect(await get(`/v1/reverse/${devnet.contracts.registry}`)).toEqual({
          statusCode: 404,
          body: { error: "no_name", address: devnet.contracts.registry },
        });
        expect(await get("/v1/reverse/GNOTANADDRESS")).toEqual({
          statusCode: 400,
          body: {
            error: "bad_address",
            detail: "address: must be a Stellar account (G…) or contract (C…) address",
          },
        });
      });

      it("keeps the primary name ahead of a newer name, which leads the holder's list", async () => {
        const alice = await nameRow("alice");
        const newer = {
          ...alice,
          node: nameNode("newer", "acme"),
          label: "newer",
          issuedLedger: alice.issuedLedger + 1000,
        };
        await database.db.insert(names).values(newer);
        try {
          expect((await get(`/v1/reverse/${pk("alice")}`)).body).toEqual({ name: "alice.acme" });
          expect(await get(`/v1/names/by-holder/${pk("alice")}`)).toEqual({
            statusCode: 200,
            body: {
              holder: pk("alice"),
              names: [
                {
                  name: "newer.acme",
                  namespace: "acme",
                  holder: pk("alice"),
                  issuedAt: alice.issuedAt?.toISOString(),
                  issuedLedger: newer.issuedLedger,
                },
                {
                  name: "alice.acme",
                  namespace: "acme",
                  holder: pk("alice"),
                  issuedAt: alice.issuedAt?.toISOString(),
                  issuedLedger: alice.issuedLedger,
                },
              ],
              truncated: false,
            },
          });
        } finally {
          await database.db.delete(names).where(eq(names.node, newer.node));
        }
      });

      it("lists at most 100 names, newest first, and says when there are more", async () => {
        const holder = Keypair.random().publicKey();
        const carol = await nameRow("carol", "plain");
        await database.db.insert(names).values(
          Array.from({ length: 101 }, (_, i) => ({
            ...carol,
            node: nameNode(`n${i}`, "bulk"),
            namespace: "bulk",
            label: `n${i}`,
            holder,
            issuedLedger: 10 + i,
            issuedAt: null,
          })),
        );
        const { statusCode, body } = await get(`/v1/names/by-holder/${holder}`);
        expect(statusCode).toBe(200);
        expect(body).toEqual({
          holder,
          names: Array.from({ length: 100 }, (_, i) => ({
            name: `n${100 - i}.bulk`,
            namespace: "bulk",
            holder,
            issuedAt: null,
            issuedLedger: 110 - i,
          })),
          truncated: true,
        });
        expect(await get(`/v1/names/by-holder/${pk("treasury")}`)).toEqual({
          statusCode: 200,
          body: { holder: pk("treasury"), names: [], truncated: false },
        });
        expect((await get("/v1/names/by-holder/nope")).body).toMatchObject({ error: "bad_address" });
      });
    });

    describe("GET /v1/names/…/history", () => {
      const historyOf = async (label: string) =>
        (
          await database.db
            .select()
            .from(nameHistory)
            .where(eq(nameHistory.node, nameNode(label, "acme")))
            .orderBy(asc(nameHistory.eventId))
        )
          .reverse()
          .map((e) => ({
            action: e.action,
            ledger: e.ledger,
            txHash: e.txHash,
            at: e.at?.toISOString() ?? null,
            ingestedAt: e.ingestedAt.toISOString(),
          }));

      it("lists a reclaimed name's lifecycle newest first, with chain times", async () => {
        const gone = await nameRow("gone");
        const events = await historyOf("gone");
        expect(events.map((e) => e.action)).toEqual(["reclaimed", "issued"]);
        expect(events.every((e) => e.at !== null)).toBe(true);
        expect(await get("/v1/names/acme/gone/history")).toEqual({
          statusCode: 200,
          body: {
            name: "gone.acme",
            issuedAt: gone.issuedAt?.toISOString(),
            issuedLedger: gone.issuedLedger,
            events,
            nextCursor: null,
          },
        });
      });

      it("pages with limit and an opaque cursor valid for its own name only", async () => {
        const events = await historyOf("gone");
        const first = await get("/v1/names/acme/gone/history?limit=1");
        expect(first.body).toMatchObject({ events: [events[0]], nextCursor: expect.any(String) });
        const cursor = (first.body as { nextCursor: string }).nextCursor;
        const second = await get(`/v1/names/acme/gone/history?limit=1&cursor=${cursor}`);
        expect(second.body).toMatchObject({ events: [events[1]], nextCursor: null });
        expect(await get(`/v1/names/acme/alice/history?cursor=${cursor}`)).toEqual({
          statusCode: 400,
          body: { error: "invalid_request", detail: "cursor: belongs to another name's history" },
        });
        expect(await get("/v1/names/acme/gone/history?cursor=xyz")).toEqual({
          statusCode: 400,
          body: {
            error: "invalid_request",
            detail: "cursor: is malformed; use a nextCursor from this endpoint unchanged",
          },
        });
        for (const limit of ["0", "101", "x"]) {
          expect(await get(`/v1/names/acme/gone/history?limit=${limit}`)).toEqual({
            statusCode: 400,
            body: { error: "invalid_request", detail: "limit: must be an integer from 1 to 100" },
          });
        }
      });

      it("keeps chain order when an older event is stored later, as a back-fill stores it", async () => {
        const node = nameNode("alice", "acme");
        const [latest] = await database.db
          .select()
          .from(nameHistory)
          .where(eq(nameHistory.node, node))
          .limit(1);
        if (latest === undefined) throw new Error("alice.acme has no history");
        // Ledger 2's first event, older than everything the demo indexed, inserted after it (a larger row id).
        const backfilled = { ...latest, eventId: "0000000008589938688-0000000000", ledger: 2 };
        const { id: _id, ingestedAt: _at, ...row } = backfilled;
        await database.db.insert(nameHistory).values({ ...row, action: "transferred" });
        try {
          const all = await get("/v1/names/acme/alice/history");
          const events = (all.body as { events: { ledger: number; action: string }[] }).events;
          expect(events.length).toBeGreaterThan(1);
          expect(events.at(-1)).toMatchObject({ ledger: 2, action: "transferred" });
          expect(events.map((e) => e.ledger)).toEqual([...events.map((e) => e.ledger)].sort((a, b) => b - a));
          // Paged one by one, the same order, the back-filled event last.
          const paged: number[] = [];
          let cursor: string | null = null;
          do {
            const page = await get(
              `/v1/names/acme/alice/history?limit=1${cursor === null ? "" : `&cursor=${cursor}`}`,
            );
            const body = page.body as { events: { ledger: number }[]; nextCursor: string | null };
            paged.push(...body.events.map((e) => e.ledger));
            cursor = body.nextCursor;
          } while (cursor !== null);
          expect(paged).toEqual(events.map((e) => e.ledger));
        } finally {
          await database.db.delete(nameHistory).where(eq(nameHistory.eventId, backfilled.eventId));
        }
      });

      it("answers name_not_found for a name never issued", async () => {
        expect(await get("/v1/names/acme/nobody/history")).toEqual({
          statusCode: 404,
          body: { error: "name_not_found", name: "nobody.acme" },
        });
      });
    });

    // Last: it changes the chain.
    it("drops cached answers when a batch that changes their nodes commits", async () => {
      const wallet = settlingWallet(devnet);
      const acme = demoKeypair("acme");
      const registrar = devnet.demo?.namespaces.acme.registrar ?? "";
      const before = await get("/v1/resolve/acme/bob");
      expect(before.statusCode).toBe(200);
      expect(await get("/v1/resolve/acme/dave")).toMatchObject({ statusCode: 404 });

      const renewedTo = BigInt(devnet.chain.latest.closeTime) + 2n * 365n * 86_400n;
      await wallet.invoke(acme, registrar, RegistrarFns.renew, { label: "bob", expiresAt: renewedTo });
      await wallet.invoke(acme, registrar, RegistrarFns.issue, {
        label: "dave",
        holder: pk("carol"),
        address: pk("carol"),
        expiresAt: 0n,
      });
      changed = new Set();
      await runUntilIdle(indexer);
      expect(changed).toEqual(new Set([nameNode("bob", "acme"), nameNode("dave", "acme")]));
      expect((await nameRow("bob")).expiresAt).toBe(renewedTo);

      // Nobody publishes by hand: the batch's own transaction notified the nodes when it committed.
      const bob = await nameRow("bob");
      await vi.waitFor(
        async () =>
          expect(await get("/v1/resolve/acme/bob")).toEqual({
            statusCode: 200,
            body: { ...before.body, expires_at: iso(renewedTo), ledger: bob.issuedLedger },
          }),
        { timeout: 10_000, interval: 20 },
      );
      const dave = await nameRow("dave");
      expect(await get("/v1/resolve/acme/dave")).toEqual({
        statusCode: 200,
        body: {
          name: "dave.acme",
          account: pk("carol"),
          ownership: "permanent",
          storage: "live",
          expires_at: null,
          ledger: dave.issuedLedger,
        },
      });
    });

    // After the one above: it changes the chain too.
    it("drops a namespace's cached answers when the namespace is locked, so ownership turns permanent at once", async () => {
      const wallet = settlingWallet(devnet);
      const cached = await get("/v1/resolve/plain/carol");
      expect(cached).toMatchObject({ statusCode: 200, body: { ownership: "revocable" } });
      expect((await get("/v1/resolve/acme/alice")).body).toMatchObject({ ownership: "permanent" });
      await wallet.invoke(demoKeypair("plain"), devnet.contracts.registry, RegistryFns.lock, {
        node: namespaceNode("plain"),
      });
      await runUntilIdle(indexer);
      // The lock changes no name's node; without the namespace-wide notification the cached `revocable` would
      // stay for up to the cache's 60 s TTL.
      await vi.waitFor(
        async () =>
          expect(await get("/v1/resolve/plain/carol")).toEqual({
            statusCode: 200,
            body: { ...cached.body, ownership: "permanent" },
          }),
        { timeout: 10_000, interval: 20 },
      );
    });
  });
}
