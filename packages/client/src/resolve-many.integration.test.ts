// resolveMany, reverseMany and resolveManyVerified on the demo devnet: items in order, each what the single
// calls answer (resolve, GET /v1/reverse); lists over 100 as several requests; the verified variant confirms each
// resolved name with the lookup contract, at most `concurrency` RPC reads at once, and marks an item the chain
// contradicts as resolution_mismatch without failing the others.
import { createServer, type Server } from "node:http";
import { demoKeypair } from "@namereg/devnet";
import { type App, buildApp, ChainClient } from "@namereg/server";
import { indexDemo, testConfig } from "@namereg/server/testing";
import { Keypair } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchOf } from "../test/inject-fetch.ts";
import { createApi, type NameregError, resolve } from "./api.ts";
import { resolveMany, resolveManyVerified, reverseMany } from "./resolve-many.ts";

type IndexedDemoChain = Awaited<ReturnType<typeof indexDemo>>;

/** An HTTP proxy to the RPC that records the most requests it had in flight at once. */
async function countingRpc(
  target: string,
): Promise<{ url: string; most: () => number; close: () => Promise<void> }> {
  let inFlight = 0;
  let most = 0;
  const server: Server = createServer(async (req, res) => {
    inFlight++;
    most = Math.max(most, inFlight);
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const answer = await fetch(target, {
        method: req.method ?? "POST",
        headers: { "content-type": "application/json" },
        body: Buffer.concat(chunks),
      });
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(Buffer.from(await answer.arrayBuffer()));
    } finally {
      inFlight--;
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    most: () => most,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const pk = (role: Parameters<typeof demoKeypair>[0]) => demoKeypair(role).publicKey();

describe("batch reads in the client, on the demo devnet", () => {
  let demo: IndexedDemoChain;
  let app: App;
  beforeAll(async () => {
    demo = await indexDemo("pglite");
    app = await buildApp({
      config: testConfig(),
      db: demo.database,
      redis: null,
      chainClient: new ChainClient(demo.devnet.rpcUrl, demo.devnet.networkPassphrase),
    });
  });
  afterAll(async () => {
    await app?.close();
    await demo?.database.close();
    await demo?.devnet.stop();
  });

  it("resolveMany answers each name as resolve does, in order, 150 names as two requests", async () => {
    const seen: string[] = [];
    const api = createApi({ baseUrl: "http://namereg.test", fetch: fetchOf(app, seen) });
    const names = ["alice.acme", "nobody.acme", "old.acme", "carol.plain", "bad_name.acme"];
    const items = await resolveMany(api, names);
    expect(seen).toEqual(["POST /v1/resolve"]);
    for (const [i, name] of names.entries()) {
      const single = await resolve(api, name).then(
        (answer) => answer as unknown,
        (error: NameregError) => ({
          name: error.body.name ?? name,
          error: error.code,
          ...(error.detail ? { detail: error.detail } : {}),
        }),
      );
      expect(items[i]).toEqual(single);
    }
    seen.length = 0;
    const many = Array.from({ length: 150 }, (_, i) => (i % 2 === 0 ? "alice.acme" : `n${i}.acme`));
    const long = await resolveMany(api, many);
    expect(seen).toEqual(["POST /v1/resolve", "POST /v1/resolve"]);
    expect(long).toHaveLength(150);
    expect(long[148]).toMatchObject({ name: "alice.acme", account: pk("alice") });
    expect(long[149]).toEqual({ name: "n149.acme", error: "name_not_found" });
  });

  it("reverseMany answers each address, null where it holds no name, bad_address for a malformed one", async () => {
    const api = createApi({ baseUrl: "http://namereg.test", fetch: fetchOf(app) });
    expect(await reverseMany(api, [pk("alice"), Keypair.random().publicKey(), "nope"])).toEqual([
      { address: pk("alice"), name: "alice.acme" },
      { address: expect.any(String), name: null },
      {
        address: "nope",
        error: "bad_address",
        detail: "address: must be a Stellar account (G…) or contract (C…) address",
      },
    ]);
  });

  it("resolveManyVerified confirms each with the lookup contract, a few at a time, and flags a lie per item", async () => {
    const rpc = await countingRpc(demo.devnet.rpcUrl);
    try {
      const attacker = Keypair.random().publicKey();
      const real = fetchOf(app);
      // A mirror that lies about bob.acme alone.
      const lying: typeof fetch = async (input, init) => {
        const response = await real(input, init);
        const body = (await response.json()) as { results: { name: string; account?: string }[] };
        const results = body.results.map((r) => (r.name === "bob.acme" ? { ...r, account: attacker } : r));
        return new Response(JSON.stringify({ results }), {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      };
      const api = createApi({ baseUrl: "http://namereg.test", fetch: lying });
      const names = [
        "alice.acme",
        "pay.alice.acme",
        "bob.acme",
        "nobody.acme",
        ...Array(8).fill("carol.plain"),
      ];
      const items = await resolveManyVerified(api, names, {
        rpcUrl: rpc.url,
        networkPassphrase: demo.devnet.networkPassphrase,
        lookupId: demo.devnet.contracts.lookup,
        concurrency: 2,
      });
      expect(items[0]).toMatchObject({
        name: "alice.acme",
        account: pk("alice"),
        chain: { address: pk("alice") },
      });
      expect(items[1]).toMatchObject({ name: "pay.alice.acme", chain: { address: pk("alice"), memo: null } });
      expect(items[2]).toMatchObject({ name: "bob.acme", error: "resolution_mismatch" });
      expect(items[3]).toEqual({ name: "nobody.acme", error: "name_not_found" });
      for (const item of items.slice(4))
        expect(item).toMatchObject({ name: "carol.plain", chain: { address: pk("carol") } });
      expect(rpc.most()).toBeGreaterThan(0);
      expect(rpc.most()).toBeLessThanOrEqual(2);
    } finally {
      await rpc.close();
    }
  });
});
