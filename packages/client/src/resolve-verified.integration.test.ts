// resolveVerified on the demo devnet: the API (an app over the indexed demo, reached through fetch) and the chain's
// lookup contract agree on alice.acme, so it resolves; an API answer naming another account is refused with a
// typed `resolution_mismatch`, and an unknown name is the API's typed 404.

import { type App, buildApp, ChainClient } from "@namereg/server";
import { indexDemo, testConfig } from "@namereg/server/testing";

type IndexedDemoChain = Awaited<ReturnType<typeof indexDemo>>;

import { Keypair } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchOf } from "../test/inject-fetch.ts";
import { createApi, NameregError } from "./api.ts";
import { resolveVerified } from "./resolve-verified.ts";

describe("resolveVerified on the demo devnet", () => {
  let demo: IndexedDemoChain;
  let app: App;
  let options: { rpcUrl: string; networkPassphrase: string; lookupId: string };
  beforeAll(async () => {
    demo = await indexDemo("pglite");
    // Subname reads are live reads of the registrar: the app needs the chain too.
    app = await buildApp({
      config: testConfig(),
      db: demo.database,
      redis: null,
      chainClient: new ChainClient(demo.devnet.rpcUrl, demo.devnet.networkPassphrase),
    });
    options = {
      rpcUrl: demo.devnet.rpcUrl,
      networkPassphrase: demo.devnet.networkPassphrase,
      lookupId: demo.devnet.contracts.lookup,
    };
  });
  afterAll(async () => {
    await app?.close();
    await demo?.database.close();
    await demo?.devnet.stop();
  });

  it("resolves alice.acme when the chain agrees", async () => {
    const api = createApi({ baseUrl: "http://namereg.test", fetch: fetchOf(app) });
    const verified = await resolveVerified(api, "alice.acme", options);
    expect(verified.name).toBe("alice.acme");
    expect(verified.chain.address).toBe(verified.account);
    expect(verified.account).toMatch(/^[GC][A-Z2-7]{55}$/);
  });

  it("resolves the subname pay.alice.acme to the child's address when the chain's lookup agrees", async () => {
    const api = createApi({ baseUrl: "http://namereg.test", fetch: fetchOf(app) });
    const verified = await resolveVerified(api, "pay.alice.acme", options);
    expect(verified).toMatchObject({ name: "pay.alice.acme", parent: "alice.acme" });
    expect(verified.account).toMatch(/^[GC][A-Z2-7]{55}$/);
    expect(verified.chain).toEqual({ address: verified.account, memo: null });
    // The removed old.alice.acme resolves nowhere, through the API as on chain.
    await expect(resolveVerified(api, "old.alice.acme", options)).rejects.toMatchObject({
      status: 404,
      code: "name_not_found",
    });
  });

  it("refuses a subname whose API answer names another account than the chain", async () => {
    const real = fetchOf(app);
    const attacker = Keypair.random().publicKey();
    const lying: typeof fetch = async (input, init) => {
      const response = await real(input, init);
      const body = (await response.json()) as { record: Record<string, unknown> };
      return new Response(JSON.stringify({ ...body, record: { ...body.record, address: attacker } }), {
        status: response.status,
        headers: { "content-type": "application/json" },
      });
    };
    const api = createApi({ baseUrl: "http://namereg.test", fetch: lying });
    await expect(resolveVerified(api, "pay.alice.acme", options)).rejects.toMatchObject({
      status: 409,
      code: "resolution_mismatch",
      body: { api: attacker, name: "pay.alice.acme" },
    });
  });

  it("refuses when the API's answer names another account than the chain", async () => {
    const real = fetchOf(app);
    const attacker = Keypair.random().publicKey();
    // A mirror that lies about the pay-to account, everything else as served.
    const lying: typeof fetch = async (input, init) => {
      const response = await real(input, init);
      const body = (await response.json()) as Record<string, unknown>;
      return new Response(JSON.stringify({ ...body, account: attacker }), {
        status: response.status,
        headers: { "content-type": "application/json" },
      });
    };
    const api = createApi({ baseUrl: "http://namereg.test", fetch: lying });
    const error = await resolveVerified(api, "alice.acme", options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameregError);
    expect(error).toMatchObject({ status: 409, code: "resolution_mismatch", body: { api: attacker } });
  });

  it("passes the API's typed 404 through for an unknown name", async () => {
    const api = createApi({ baseUrl: "http://namereg.test", fetch: fetchOf(app) });
    await expect(resolveVerified(api, "nobody.acme", options)).rejects.toMatchObject({
      status: 404,
      code: "name_not_found",
    });
  });
});
