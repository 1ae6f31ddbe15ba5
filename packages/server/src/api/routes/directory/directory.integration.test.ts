// The directory over the indexed demo devnet, on PGlite and on PostgreSQL: unfiltered while billing is not
// enforced (disabled, or within its grace), scoped to actively subscribed namespaces once it is.
import { demoKeypair } from "@namereg/devnet";
import { nameNode } from "@namereg/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEATURE_DATABASE_KINDS } from "../../../../test/fixtures/database.ts";
import { ACME_LOGO, type IndexedDemo, indexedDemo } from "../../../../test/fixtures/demo.ts";
import { names, subscriptions } from "../../../db/tables.ts";
import type { App } from "../../app.ts";

const alice = demoKeypair("alice").publicKey();
const bob = demoKeypair("bob").publicKey();
const carol = demoKeypair("carol").publicKey();
/** Holds 25 extra acme names, inserted by this test, to show the cap of 20. */
const collector = demoKeypair("newco").publicKey();
const nobody = demoKeypair("objector").publicKey();

const BILLING_ACCOUNT = demoKeypair("treasury").publicKey();
const ENFORCED = { BILLING_ENABLED: "true", BILLING_ACCOUNT };

const entry = (label: string, namespace: string, namespaceDisplay = namespace) => ({
  name: `${label}.${namespace}`,
  namespace,
  namespaceDisplay,
});

const collected = (from: number, to: number) => {
  const out = [];
  for (let i = from; i >= to; i--) out.push(entry(`n${String(i).padStart(2, "0")}`, "acme", "Acme"));
  return out;
};

for (const kind of FEATURE_DATABASE_KINDS) {
  describe(`directory routes on ${kind}`, () => {
    let demo: IndexedDemo;

    beforeAll(async () => {
      demo = await indexedDemo(kind);
      const { db } = demo.database;
      await db.insert(names).values(
        Array.from({ length: 25 }, (_, i) => {
          const label = `n${String(i + 1).padStart(2, "0")}`;
          return {
            node: nameNode(label, "acme"),
            namespace: "acme",
            label,
            holder: collector,
            address: collector,
            expiresAt: null,
            generation: 1n,
            active: true,
            issuedLedger: 10_000 + i,
            issuedAt: null,
            txHash: "00".repeat(32),
            updatedLedger: 10_000 + i,
          };
        }),
      );
      // Read only while billing is enforced: acme and winner are paid up; plain lapsed; forsale suspended.
      const at = demo.indexedAt.getTime();
      await db.insert(subscriptions).values([
        { namespace: "acme", status: "active", activeUntil: new Date(at + 30 * 86_400_000) },
        { namespace: "winner", status: "active", activeUntil: new Date(at + 86_400_000) },
        { namespace: "plain", status: "active", activeUntil: new Date(at - 1000) },
        { namespace: "forsale", status: "suspended", activeUntil: new Date(at + 86_400_000) },
      ]);
    });
    afterAll(async () => {
      await demo?.close();
    });

    const getter = (app: App) => async (url: string) => {
      const response = await app.inject({ url });
      return { statusCode: response.statusCode, body: response.json() };
    };

    describe("while billing is not enforced", () => {
      it("lists every namespace and every held name with filtered false, billing disabled", async () => {
        const get = getter(await demo.appAt());
        expect(await get("/v1/directory/namespaces")).toEqual({
          statusCode: 200,
          body: {
            filtered: false,
            namespaces: [
              { label: "acme", displayName: "Acme", logo: ACME_LOGO },
              { label: "forsale", displayName: null, logo: null },
              { label: "plain", displayName: null, logo: null },
              { label: "winner", displayName: null, logo: null },
            ],
          },
        });
        expect(await get(`/v1/directory/reverse/${alice}`)).toEqual({
          statusCode: 200,
          body: { address: alice, filtered: false, entries: [entry("alice", "acme", "Acme")] },
        });
        // old.acme has expired and gone.acme was reclaimed: neither is held any more.
        expect(await get(`/v1/directory/reverse/${bob}`)).toEqual({
          statusCode: 200,
          body: { address: bob, filtered: false, entries: [entry("bob", "acme", "Acme")] },
        });
        // No display name: the label stands in.
        expect(await get(`/v1/directory/reverse/${carol}`)).toEqual({
          statusCode: 200,
          body: { address: carol, filtered: false, entries: [entry("carol", "plain")] },
        });
        expect(await get(`/v1/directory/reverse/${nobody}`)).toEqual({
          statusCode: 200,
          body: { address: nobody, filtered: false, entries: [] },
        });
      });

      it("stays unfiltered within the launch grace", async () => {
        const graceUntil = new Date(demo.indexedAt.getTime() + 1000).toISOString();
        const get = getter(await demo.appAt({ env: { ...ENFORCED, BILLING_GRACE_UNTIL: graceUntil } }));
        expect((await get("/v1/directory/namespaces")).body).toMatchObject({ filtered: false });
        expect((await get("/v1/directory/namespaces")).body.namespaces).toHaveLength(4);
        expect(await get(`/v1/directory/reverse/${carol}`)).toEqual({
          statusCode: 200,
          body: { address: carol, filtered: false, entries: [entry("carol", "plain")] },
        });
      });

      it("caps reverse entries at 20, newest first", async () => {
        const get = getter(await demo.appAt());
        expect(await get(`/v1/directory/reverse/${collector}`)).toEqual({
          statusCode: 200,
          body: { address: collector, filtered: false, entries: collected(25, 6) },
        });
      });
    });

    describe("while billing is enforced", () => {
      it("lists only namespaces with an active subscription, and only their names", async () => {
        const get = getter(await demo.appAt({ env: ENFORCED }));
        expect(await get("/v1/directory/namespaces")).toEqual({
          statusCode: 200,
          body: {
            filtered: true,
            namespaces: [
              { label: "acme", displayName: "Acme", logo: ACME_LOGO },
              { label: "winner", displayName: null, logo: null },
            ],
          },
        });
        expect(await get(`/v1/directory/reverse/${alice}`)).toEqual({
          statusCode: 200,
          body: { address: alice, filtered: true, entries: [entry("alice", "acme", "Acme")] },
        });
        // plain's subscription lapsed: carol.plain is absent until it is active again.
        expect(await get(`/v1/directory/reverse/${carol}`)).toEqual({
          statusCode: 200,
          body: { address: carol, filtered: true, entries: [] },
        });
        expect((await get(`/v1/directory/reverse/${collector}`)).body.entries).toEqual(collected(25, 6));
      });

      it("enforces from the instant the grace ends, and judges expiry by the app's clock", async () => {
        const graceUntil = demo.indexedAt.toISOString();
        const get = getter(await demo.appAt({ env: { ...ENFORCED, BILLING_GRACE_UNTIL: graceUntil } }));
        expect((await get("/v1/directory/namespaces")).body).toEqual({
          filtered: true,
          namespaces: [
            { label: "acme", displayName: "Acme", logo: ACME_LOGO },
            { label: "winner", displayName: null, logo: null },
          ],
        });
        // Two days on, winner's subscription has run out as well.
        const later = new Date(demo.indexedAt.getTime() + 2 * 86_400_000);
        const getLater = getter(await demo.appAt({ env: ENFORCED, now: later }));
        expect((await getLater("/v1/directory/namespaces")).body).toEqual({
          filtered: true,
          namespaces: [{ label: "acme", displayName: "Acme", logo: ACME_LOGO }],
        });
      });
    });

    it("rejects an address that is not a G account key with 400 invalid_account", async () => {
      const get = getter(await demo.appAt());
      const invalid = {
        statusCode: 400,
        body: { error: "invalid_account", detail: "address: must be a G… account key" },
      };
      const registry = demo.chain.contracts.registry;
      const badChecksum = `${alice.slice(0, -1)}${alice.endsWith("A") ? "B" : "A"}`;
      for (const address of [registry, alice.toLowerCase(), badChecksum, "alice.acme", "G"]) {
        expect(await get(`/v1/directory/reverse/${encodeURIComponent(address)}`)).toEqual(invalid);
      }
    });
  });
}
