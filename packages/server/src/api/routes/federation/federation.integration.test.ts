// SEP-2 federation and the stellar.toml over the indexed demo devnet, on PGlite and on PostgreSQL: answers checked
// in full in-process, then through the Stellar SDK's own federation client against the listening app.
import { DEMO_MEMO, demoKeypair } from "@namereg/devnet";
import { nameNode } from "@namereg/protocol";
import { Federation, StellarToml, StrKey } from "@stellar/stellar-sdk";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEATURE_DATABASE_KINDS } from "../../../../test/fixtures/database.ts";
import { type IndexedDemo, indexedDemo } from "../../../../test/fixtures/demo.ts";
import { names, resolverRecords } from "../../../db/tables.ts";
import type { App } from "../../app.ts";

const alice = demoKeypair("alice").publicKey();
const bob = demoKeypair("bob").publicKey();
const carol = demoKeypair("carol").publicKey();

const ALICE = { stellar_address: "alice*acme", account_id: alice, memo_type: "text", memo: DEMO_MEMO };

for (const kind of FEATURE_DATABASE_KINDS) {
  describe(`federation on ${kind}`, () => {
    let demo: IndexedDemo;
    let app: App;

    beforeAll(async () => {
      demo = await indexedDemo(kind);
      app = await demo.appAt({
        env: {
          NETWORK_PASSPHRASE: demo.chain.networkPassphrase,
          HOME_DOMAIN: "names.example",
          PUBLIC_URL: "https://names.example",
        },
      });
    });
    afterAll(async () => {
      await demo?.close();
    });

    const get = async (url: string, headers: Record<string, string> = {}) => {
      const response = await app.inject({ url, headers });
      return {
        statusCode: response.statusCode,
        cacheControl: response.headers["cache-control"],
        body: response.json(),
      };
    };
    const answer = (statusCode: number, body: unknown) => ({ statusCode, cacheControl: "no-store", body });
    const invalid = (detail: string) => answer(400, { error: "invalid_request", detail });

    it("resolves name*namespace to the payment address and its text memo", async () => {
      expect(await get("/federation?q=alice*acme&type=name")).toEqual(answer(200, ALICE));
      // Federation addresses are case-insensitive; the answer names the canonical form.
      expect(await get("/federation?q=Alice*ACME&type=name")).toEqual(answer(200, ALICE));
      // No payment instruction: the name's own address, and no memo.
      expect(await get("/federation?q=bob*acme&type=name")).toEqual(
        answer(200, { stellar_address: "bob*acme", account_id: bob }),
      );
      // A namespace without a resolver.
      expect(await get("/federation?q=carol*plain&type=name")).toEqual(
        answer(200, { stellar_address: "carol*plain", account_id: carol }),
      );
    });

    it("resolves label.namespace*<home domain>, the form SEP-2 wallets find through the stellar.toml", async () => {
      const home = { ...ALICE, stellar_address: "alice.acme*names.example" };
      expect(await get("/federation?q=alice.acme*names.example&type=name")).toEqual(answer(200, home));
      expect(await get("/federation?q=Alice.ACME*Names.Example&type=name")).toEqual(answer(200, home));
      // Another domain, a subname, a bare namespace and unknown names name nothing here.
      for (const q of [
        "alice.acme*other.example",
        "pay.alice.acme*names.example",
        "acme*names.example",
        "nobody.acme*names.example",
        "alice.nosuch*names.example",
      ]) {
        expect(await get(`/federation?q=${encodeURIComponent(q)}&type=name`)).toEqual(
          answer(404, { error: "not_found" }),
        );
      }
    });

    it("answers 404 not_found for names that do not resolve", async () => {
      // Unknown, expired (old.acme), reclaimed (gone.acme), unknown namespace, subname and non-label names.
      for (const q of [
        "nobody*acme",
        "old*acme",
        "gone*acme",
        "alice*nosuch",
        "pay.alice*acme",
        "a@b.c*acme",
      ]) {
        expect(await get(`/federation?q=${encodeURIComponent(q)}&type=name`)).toEqual(
          answer(404, { error: "not_found" }),
        );
      }
    });

    it("answers by account with the account's primary name", async () => {
      expect(await get(`/federation?q=${alice}&type=id`)).toEqual(
        answer(200, { stellar_address: "alice*acme", account_id: alice }),
      );
      expect(await get(`/federation?q=${bob}&type=id`)).toEqual(answer(404, { error: "not_found" }));
    });

    it("rejects missing or malformed q and type with 400 invalid_request", async () => {
      expect(await get("/federation?type=name")).toEqual(invalid("q: is required"));
      expect(await get("/federation?q=&type=name")).toEqual(invalid("q: is required"));
      expect(await get("/federation?q=alice*acme")).toEqual(invalid("type: is required"));
      for (const type of ["txid", "forward", "NAME", ""]) {
        expect(await get(`/federation?q=alice*acme&type=${type}`)).toEqual(
          invalid("type: must be name or id (txid and forward are not supported)"),
        );
      }
      expect(await get("/federation?q=alice*acme&q=bob*acme&type=name")).toEqual(
        invalid("q: must be given once"),
      );
      for (const q of ["alice", "alice*", "*acme", "a*b*c"]) {
        expect(await get(`/federation?q=${encodeURIComponent(q)}&type=name`)).toEqual(
          invalid("q: must be a federation address name*domain, such as alice*acme"),
        );
      }
      expect(await get("/federation?q=alice*acme&type=id")).toEqual(
        invalid("q: must be a G… account key when type is id"),
      );
    });

    it("follows the payment instruction of the current issuance only", async () => {
      const node = nameNode("bob", "acme");
      const [bobName] = await demo.database.db.select().from(names).where(eq(names.node, node));
      const generation = bobName?.generation ?? 0n;
      const payment = { node, paymentAddress: carol, paymentMemo: null, updatedLedger: 1 };
      await demo.database.db.insert(resolverRecords).values({ ...payment, generation });
      expect((await get("/federation?q=bob*acme&type=name")).body).toEqual({
        stellar_address: "bob*acme",
        account_id: carol,
      });
      // A payment left from an earlier issuance belongs to a previous holder.
      await demo.database.db
        .update(resolverRecords)
        .set({ generation: generation - 1n, paymentMemo: "stale" })
        .where(eq(resolverRecords.node, node));
      expect((await get("/federation?q=bob*acme&type=name")).body).toEqual({
        stellar_address: "bob*acme",
        account_id: bob,
      });
      await demo.database.db.delete(resolverRecords).where(eq(resolverRecords.node, node));
    });

    it("is open to any origin", async () => {
      const response = await app.inject({
        url: "/federation?q=alice*acme&type=name",
        headers: { origin: "https://wallet.example" },
      });
      expect(response.headers["access-control-allow-origin"]).toBe("*");
      const toml = await app.inject({
        url: "/.well-known/stellar.toml",
        headers: { origin: "https://wallet.example" },
      });
      expect(toml.headers["access-control-allow-origin"]).toBe("*");
    });

    it("publishes a stellar.toml naming the federation server at the configured public URL", async () => {
      const response = await app.inject({
        url: "/.well-known/stellar.toml",
        headers: { host: "evil.example" },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
      const lines = response.body.split("\n");
      const signingKey = /^SIGNING_KEY="(G[A-Z2-7]{55})"$/.exec(lines[3] ?? "")?.[1] ?? "";
      expect(StrKey.isValidEd25519PublicKey(signingKey)).toBe(true);
      expect(lines.filter((_, i) => i !== 3)).toEqual([
        "# namereg: SEP-2 federation for name*namespace addresses (alice*acme).",
        'FEDERATION_SERVER="https://names.example/federation"',
        'WEB_AUTH_ENDPOINT="https://names.example/auth"',
        `NETWORK_PASSPHRASE="${demo.chain.networkPassphrase}"`,
        "",
      ]);
      // The Host header never reaches the TOML, so it cannot inject a line either.
      const odd = await app.inject({ url: "/.well-known/stellar.toml", headers: { host: 'x"\nEVIL=1' } });
      expect(odd.statusCode).toBe(200);
      expect(odd.body).not.toContain("EVIL");
    });

    it("omits NETWORK_PASSPHRASE when none is configured", async () => {
      const plainApp = await demo.appAt();
      const response = await plainApp.inject({
        url: "/.well-known/stellar.toml",
        headers: { host: "n.example:8443" },
      });
      const lines = response.body.split("\n");
      expect(lines.filter((l) => !l.startsWith("SIGNING_KEY="))).toEqual([
        "# namereg: SEP-2 federation for name*namespace addresses (alice*acme).",
        // No PUBLIC_URL: from HOME_DOMAIN (localhost here, so plain http), not from the Host header.
        'FEDERATION_SERVER="http://localhost/federation"',
        'WEB_AUTH_ENDPOINT="http://localhost/auth"',
        "",
      ]);
      expect(lines.some((l) => /^SIGNING_KEY="G[A-Z2-7]{55}"$/.test(l))).toBe(true);
    });

    describe("through the Stellar SDK", () => {
      let base: string;
      beforeAll(async () => {
        base = await app.listen({ host: "127.0.0.1", port: 0 });
      });

      it("resolves addresses and accounts with Federation.Server", async () => {
        const server = new Federation.Server(`${base}/federation`, "acme", { allowHttp: true });
        expect(await server.resolveAddress("alice*acme")).toEqual(ALICE);
        expect(await server.resolveAddress("alice")).toEqual(ALICE);
        expect(await server.resolveAccountId(alice)).toEqual({
          stellar_address: "alice*acme",
          account_id: alice,
        });
        await expect(server.resolveAddress("nobody*acme")).rejects.toThrow(/404/);
      });

      it("discovers the federation server from the stellar.toml", async () => {
        const domain = base.replace("http://", "");
        const toml = await StellarToml.Resolver.resolve(domain, { allowHttp: true });
        // The published URLs are the configured public ones, not where this test happened to connect.
        expect(toml).toMatchObject({
          FEDERATION_SERVER: "https://names.example/federation",
          WEB_AUTH_ENDPOINT: "https://names.example/auth",
          NETWORK_PASSPHRASE: demo.chain.networkPassphrase,
        });
        expect(StrKey.isValidEd25519PublicKey(String(toml.SIGNING_KEY))).toBe(true);
        const server = new Federation.Server(`${base}/federation`, "acme", { allowHttp: true });
        expect(await server.resolveAddress("alice*acme")).toEqual(ALICE);
      });
    });
  });
}
