// The discovery routes over the indexed demo devnet, on PGlite and on PostgreSQL.

import { demoKeypair } from "@namereg/devnet";
import { namespaceNode } from "@namereg/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEATURE_DATABASE_KINDS } from "../../../../test/fixtures/database.ts";
import { ACME_LOGO, type IndexedDemo, indexedDemo } from "../../../../test/fixtures/demo.ts";
import { names, namespaces } from "../../../db/tables.ts";
import type { App } from "../../app.ts";
import { LABEL_RULE } from "../path-params.ts";

type NamespaceRow = typeof namespaces.$inferSelect;

for (const kind of FEATURE_DATABASE_KINDS) {
  describe(`discovery routes on ${kind}`, () => {
    let demo: IndexedDemo;
    let app: App;
    let rows: Map<string, NamespaceRow>;

    beforeAll(async () => {
      demo = await indexedDemo(kind);
      app = await demo.appAt();
      const all = await demo.database.db.select().from(namespaces);
      rows = new Map(all.map((row) => [row.label, row]));
    });
    afterAll(async () => {
      await demo?.close();
    });

    const get = async (url: string) => {
      const response = await app.inject({ url });
      return { statusCode: response.statusCode, body: response.json() };
    };
    const row = (label: string): NamespaceRow => {
      const found = rows.get(label);
      if (found === undefined) throw new Error(`demo namespace ${label} was not indexed`);
      return found;
    };
    const awardedAt = (label: string) => row(label).allocatedAt?.toISOString();

    it("lists every namespace by label with its profile, policy, activation and award", async () => {
      expect(await get("/v1/namespaces")).toEqual({
        statusCode: 200,
        body: {
          namespaces: [
            {
              label: "acme",
              displayName: "Acme",
              subnamePolicy: "enabled",
              activated: true,
              awardedAt: awardedAt("acme"),
              method: "reserved",
            },
            {
              label: "forsale",
              displayName: null,
              subnamePolicy: "enabled",
              activated: false,
              awardedAt: awardedAt("forsale"),
              method: "reserved",
            },
            {
              label: "plain",
              displayName: null,
              subnamePolicy: "creation-disabled",
              activated: false,
              awardedAt: awardedAt("plain"),
              method: "reserved",
            },
            {
              label: "winner",
              displayName: null,
              subnamePolicy: "enabled",
              activated: false,
              awardedAt: awardedAt("winner"),
              method: "allocate",
            },
          ],
          truncated: false,
        },
      });
      // Chain time of the allocation, not the ingestion time.
      expect(awardedAt("acme")).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(row("acme").allocatedAt?.getTime()).toBeLessThan(demo.indexedAt.getTime() - 60_000);
    });

    it("describes one namespace, accepting an upper-case label", async () => {
      const acme = row("acme");
      const expected = {
        label: "acme",
        node: namespaceNode("acme"),
        operator: demoKeypair("acme").publicKey(),
        displayName: "Acme",
        subnamePolicy: "enabled",
        method: "reserved",
        awardLedger: acme.allocatedLedger,
        awardedAt: awardedAt("acme"),
        issuedNames: 3,
        registrarId: demo.chain.namespaces.acme.registrar,
        resolverId: demo.chain.namespaces.acme.resolver,
        chainNetworks: ["ethereum", "bitcoin"],
        locked: true,
      };
      expect(await get("/v1/namespaces/acme")).toEqual({ statusCode: 200, body: expected });
      expect(await get("/v1/namespaces/ACME")).toEqual({ statusCode: 200, body: expected });
      expect(acme.allocatedLedger).toBeGreaterThan(demo.chain.deploymentLedger);

      expect(await get("/v1/namespaces/plain")).toEqual({
        statusCode: 200,
        body: {
          label: "plain",
          node: namespaceNode("plain"),
          operator: demoKeypair("plain").publicKey(),
          displayName: null,
          subnamePolicy: "creation-disabled",
          method: "reserved",
          awardLedger: row("plain").allocatedLedger,
          awardedAt: awardedAt("plain"),
          issuedNames: 1,
          registrarId: demo.chain.namespaces.plain.registrar,
          resolverId: null,
          chainNetworks: [],
          locked: false,
        },
      });
    });

    it("answers 404 namespace_not_found for an unknown namespace and 400 invalid_name for a malformed one", async () => {
      expect(await get("/v1/namespaces/nosuch")).toEqual({
        statusCode: 404,
        body: { error: "namespace_not_found", namespace: "nosuch" },
      });
      const invalid = {
        statusCode: 400,
        body: {
          error: "invalid_name",
          detail: `namespace: ${LABEL_RULE}`,
        },
      };
      expect(await get("/v1/namespaces/-acme")).toEqual(invalid);
      expect(await get("/v1/namespaces/ac_me")).toEqual(invalid);
      expect(await get(`/v1/namespaces/${"a".repeat(64)}`)).toEqual(invalid);
      expect(await get("/v1/namespaces/acme.x")).toEqual(invalid);
    });

    it("lists a namespace's issued names by label, expired ones flagged, reclaimed ones left out", async () => {
      const held = await demo.database.db.select().from(names);
      const of = (label: string) => {
        const found = held.find((n) => n.namespace === "acme" && n.label === label);
        if (found === undefined) throw new Error(`demo name ${label}.acme was not indexed`);
        return found;
      };
      const entry = (label: string, expired: boolean, subnames: number) => {
        const n = of(label);
        return {
          name: `${label}.acme`,
          label,
          holder: n.holder,
          expiresAt: n.expiresAt === null ? null : new Date(Number(n.expiresAt) * 1000).toISOString(),
          expired,
          issuedLedger: n.issuedLedger,
          issuedAt: n.issuedAt?.toISOString() ?? null,
          subnames,
        };
      };
      // alice holds pay.alice.acme (old.alice.acme was removed); old.acme is past its expiry; gone.acme was
      // reclaimed, so it is not issued any more.
      const all = [entry("alice", false, 1), entry("bob", false, 0), entry("old", true, 0)];
      expect(all[0]?.holder).toBe(demoKeypair("alice").publicKey());
      expect(await get("/v1/namespaces/ACME/names")).toEqual({
        statusCode: 200,
        body: { namespace: "acme", names: all, nextCursor: null },
      });
      expect((await get("/v1/namespaces/acme")).body.issuedNames).toBe(all.length);

      // Keyset pages of one: each cursor continues after the last label, and the last page says it is the last
      // (no empty page follows a full one).
      const labels: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const after: string = cursor === null ? "" : `&cursor=${cursor}`;
        const { statusCode, body } = await get(`/v1/namespaces/acme/names?limit=1${after}`);
        expect(statusCode).toBe(200);
        labels.push(...body.names.map((n: { label: string }) => n.label));
        cursor = body.nextCursor;
        pages++;
      } while (cursor !== null && pages < 10);
      expect(labels).toEqual(["alice", "bob", "old"]);
      expect(pages).toBe(3);
    });

    it("answers an empty list for a namespace without names, and refuses unknown namespaces and foreign cursors", async () => {
      expect(await get("/v1/namespaces/winner/names")).toEqual({
        statusCode: 200,
        body: { namespace: "winner", names: [], nextCursor: null },
      });
      expect(await get("/v1/namespaces/nosuch/names")).toEqual({
        statusCode: 404,
        body: { error: "namespace_not_found", namespace: "nosuch" },
      });
      expect(await get("/v1/namespaces/-acme/names")).toEqual({
        statusCode: 400,
        body: { error: "invalid_name", detail: `namespace: ${LABEL_RULE}` },
      });
      const first = (await get("/v1/namespaces/acme/names?limit=1")).body;
      expect(await get(`/v1/namespaces/plain/names?cursor=${first.nextCursor}`)).toEqual({
        statusCode: 400,
        body: { error: "invalid_request", detail: "cursor: belongs to another namespace's names" },
      });
      const malformed = {
        statusCode: 400,
        body: {
          error: "invalid_request",
          detail: "cursor: is malformed; use a nextCursor from this endpoint unchanged",
        },
      };
      expect(await get("/v1/namespaces/acme/names?cursor=garbage!")).toEqual(malformed);
      const forged = Buffer.from(JSON.stringify({ v: 1, after: "a'--", ns: "acme" })).toString("base64url");
      expect(await get(`/v1/namespaces/acme/names?cursor=${forged}`)).toEqual(malformed);
      expect(await get("/v1/namespaces/acme/names?limit=101")).toEqual({
        statusCode: 400,
        body: { error: "invalid_request", detail: "limit: must be an integer from 1 to 100" },
      });
      expect(await get("/v1/namespaces/acme/names?offset=2")).toEqual({
        statusCode: 400,
        body: { error: "invalid_request", detail: 'querystring: Unrecognized key: "offset"' },
      });
    });

    it("looks up prefix matches before substring matches, for namespaces and names", async () => {
      expect(await get("/v1/lookup?q=a")).toEqual({
        statusCode: 200,
        body: {
          q: "a",
          // One character: prefixes only (no trigram to search substrings with).
          namespaces: [{ label: "acme", displayName: "Acme" }],
          names: [{ name: "alice.acme", label: "alice", namespace: "acme" }],
        },
      });
      // "ain" is inside plain (namespace); no name contains it.
      expect(await get("/v1/lookup?q=AIN")).toEqual({
        statusCode: 200,
        body: { q: "ain", namespaces: [{ label: "plain", displayName: null }], names: [] },
      });
      // "car" starts carol; "arol" is inside it.
      expect((await get("/v1/lookup?q=car")).body).toEqual({
        q: "car",
        namespaces: [],
        names: [{ name: "carol.plain", label: "carol", namespace: "plain" }],
      });
      expect((await get("/v1/lookup?q=arol")).body).toMatchObject({
        names: [{ name: "carol.plain", label: "carol", namespace: "plain" }],
      });
      // "ice" is inside alice only; "nne" in winner only.
      expect((await get("/v1/lookup?q=nne")).body).toEqual({
        q: "nne",
        namespaces: [{ label: "winner", displayName: null }],
        names: [],
      });
    });

    it("ranks a prefix match ahead of a substring match", async () => {
      // "ale": forsale contains it, nothing starts with it; "al": alice starts with it, forsale only contains it
      // and a two-character term searches prefixes only.
      expect((await get("/v1/lookup?q=ale")).body).toEqual({
        q: "ale",
        namespaces: [{ label: "forsale", displayName: null }],
        names: [],
      });
      expect((await get("/v1/lookup?q=bo")).body).toEqual({
        q: "bo",
        namespaces: [],
        names: [{ name: "bob.acme", label: "bob", namespace: "acme" }],
      });
    });

    it("finds neither expired nor reclaimed names", async () => {
      expect((await get("/v1/lookup?q=old")).body).toEqual({ q: "old", namespaces: [], names: [] });
      expect((await get("/v1/lookup?q=gone")).body).toEqual({ q: "gone", namespaces: [], names: [] });
    });

    it("searches the names of one namespace with label.namespace", async () => {
      expect((await get("/v1/lookup?q=al.acme")).body).toEqual({
        q: "al.acme",
        namespaces: [{ label: "acme", displayName: "Acme" }],
        names: [{ name: "alice.acme", label: "alice", namespace: "acme" }],
      });
      expect((await get("/v1/lookup?q=.acme")).body).toEqual({
        q: ".acme",
        namespaces: [{ label: "acme", displayName: "Acme" }],
        names: [
          { name: "alice.acme", label: "alice", namespace: "acme" },
          { name: "bob.acme", label: "bob", namespace: "acme" },
        ],
      });
      expect((await get("/v1/lookup?q=carol.acme")).body).toEqual({
        q: "carol.acme",
        namespaces: [{ label: "acme", displayName: "Acme" }],
        names: [],
      });
      expect((await get("/v1/lookup?q=alice.ac")).body).toEqual({
        q: "alice.ac",
        namespaces: [{ label: "acme", displayName: "Acme" }],
        names: [],
      });
    });

    it("matches nothing for subname queries and characters no label holds, LIKE wildcards included", async () => {
      for (const q of ["pay.alice.acme", "%", "a_ice", "al%25", "ä", "a b"]) {
        const { statusCode, body } = await get(`/v1/lookup?q=${encodeURIComponent(q)}`);
        expect(statusCode).toBe(200);
        expect(body).toEqual({ q: q.toLowerCase(), namespaces: [], names: [] });
      }
    });

    it("rejects a missing, empty, over-long or repeated q, and unknown parameters", async () => {
      const bad = (detail: string) => ({ statusCode: 400, body: { error: "invalid_request", detail } });
      expect(await get("/v1/lookup")).toEqual(bad("q: is required"));
      expect(await get("/v1/lookup?q=")).toEqual(bad("q: must be 1 to 64 characters"));
      expect(await get(`/v1/lookup?q=${"a".repeat(65)}`)).toEqual(bad("q: must be 1 to 64 characters"));
      expect((await get(`/v1/lookup?q=${"a".repeat(64)}`)).statusCode).toBe(200);
      expect(await get("/v1/lookup?q=a&q=b")).toEqual(bad("q: must be given once"));
      expect(await get("/v1/lookup?q=a&limit=3")).toEqual(bad('querystring: Unrecognized key: "limit"'));
    });

    it("showcases namespaces with names, most names first, with logos and counts", async () => {
      expect(await get("/v1/showcase")).toEqual({
        statusCode: 200,
        body: {
          namespaces: [
            { label: "acme", displayName: "Acme", logo: ACME_LOGO, issuedNames: 3 },
            { label: "plain", displayName: null, logo: null, issuedNames: 1 },
          ],
        },
      });
    });
  });
}
