// Subname and network-address reads over the demo devnet (indexed on PGlite for namespace routing), all live.

import { DEMO_ETHEREUM, demoKeypair, type NamingDevnet } from "@namereg/devnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import type { TestDatabase } from "../../../../test/fixtures/database.ts";
import { indexDemo } from "../../../../test/fixtures/demo.ts";
import { ChainClient } from "../../../chain/chain-client.ts";
import { type App, buildApp } from "../../app.ts";
import { LABEL_RULE } from "../path-params.ts";

const alice = demoKeypair("alice").publicKey();

describe("subname and network-address reads", () => {
  let devnet: NamingDevnet;
  let database: TestDatabase;
  let app: App;
  let acmeRegistrar: string;
  let plainRegistrar: string;
  /** alice.acme as the parent of its children: issued once, live, without expiry. */
  const aliceContext = { name: "alice.acme", holder: alice, generation: "1", active: true, expiresAt: null };

  beforeAll(async () => {
    ({ devnet, database } = await indexDemo("pglite"));
    acmeRegistrar = devnet.demo?.namespaces.acme.registrar ?? "";
    plainRegistrar = devnet.demo?.namespaces.plain.registrar ?? "";
    app = await buildApp({
      config: testConfig(),
      db: database,
      redis: null,
      chainClient: new ChainClient(devnet.rpcUrl, devnet.networkPassphrase),
    });
  });
  afterAll(async () => {
    await app?.close();
    await devnet?.stop();
    await database?.close();
  });

  const get = async (url: string) => {
    const response = await app.inject({ url });
    return { status: response.statusCode, cache: response.headers["cache-control"], body: response.json() };
  };

  const payRecord = () => ({
    exists: true,
    active: true,
    validBinding: true,
    controller: alice,
    parentGeneration: "1",
    generation: "1",
    address: alice,
    expiresAt: null,
    policy: "enabled",
    source: "chain",
  });

  it("reads the namespace subname policy live, uncached", async () => {
    expect(await get("/v1/subname-policy/acme")).toEqual({
      status: 200,
      cache: "no-store",
      body: {
        namespace: "acme",
        version: 1,
        policy: "enabled",
        registrarId: acmeRegistrar,
        owner: demoKeypair("acme").publicKey(),
      },
    });
    expect((await get("/v1/subname-policy/plain")).body).toEqual({
      namespace: "plain",
      version: 1,
      policy: "creation-disabled",
      registrarId: plainRegistrar,
      owner: demoKeypair("plain").publicKey(),
    });
    expect(await get("/v1/subname-policy/nowhere")).toMatchObject({
      status: 404,
      body: { error: "namespace_not_found", namespace: "nowhere" },
    });
  });

  it("reads an active child, a removed one and one never stored", async () => {
    const base = {
      parent: "alice.acme",
      parentContext: aliceContext,
      policy: "enabled",
      registrarId: acmeRegistrar,
    };
    expect(await get("/v1/subnames/acme/alice/pay")).toEqual({
      status: 200,
      cache: "no-store",
      body: { name: "pay.alice.acme", ...base, record: payRecord() },
    });
    expect((await get("/v1/subnames/acme/alice/old")).body).toEqual({
      name: "old.alice.acme",
      ...base,
      record: { ...payRecord(), exists: false, active: false },
    });
    expect((await get("/v1/subnames/acme/alice/never")).body).toEqual({
      name: "never.alice.acme",
      ...base,
      record: null,
    });
  });

  it("answers 404 for an unknown parent or namespace and 400 for a malformed label", async () => {
    expect((await get("/v1/subnames/acme/nobody/pay")).body).toEqual({
      error: "name_not_found",
      name: "nobody.acme",
    });
    expect((await get("/v1/subnames/nowhere/alice/pay")).body).toEqual({
      error: "namespace_not_found",
      namespace: "nowhere",
    });
    // Names are case-insensitive (routes/path-params.ts): upper case answers as lower case; "_" is never valid.
    expect(await get("/v1/subnames/acme/Alice/PAY")).toEqual(await get("/v1/subnames/acme/alice/pay"));
    expect((await get("/v1/subnames/acme/al_ice/pay")).body).toEqual({
      error: "invalid_name",
      detail: `label: ${LABEL_RULE}`,
    });
  });

  it("lists children with paging, removed ones included", async () => {
    const listed = (name: string, extra: object = {}) => ({ name, ...payRecord(), ...extra });
    const head = {
      parent: "alice.acme",
      parentContext: aliceContext,
      policy: "enabled",
      registrarId: acmeRegistrar,
    };
    expect(await get("/v1/subnames/acme/alice?limit=1")).toEqual({
      status: 200,
      cache: "no-store",
      body: { ...head, subnames: [listed("pay.alice.acme")], offset: 0, nextOffset: 1, source: "chain" },
    });
    expect((await get("/v1/subnames/acme/alice?offset=1&limit=2")).body).toEqual({
      ...head,
      subnames: [listed("old.alice.acme", { exists: false, active: false })],
      offset: 1,
      nextOffset: null,
      source: "chain",
    });
    expect((await get("/v1/subnames/acme/alice")).body.subnames).toHaveLength(2);
    // Plain decimal digits only, one message per problem; an error is no-store too (it must not be replayed).
    const LIMIT = "limit: must be an integer from 1 to 16";
    const OFFSET = "offset: must be an integer from 0 to 4294967295";
    for (const [query, detail] of [
      ["limit=17", LIMIT],
      ["limit=0", LIMIT],
      ["offset=-1", OFFSET],
      ["offset=1e3", OFFSET],
      ["offset=99999999999999999999", OFFSET],
      ["offset=1&offset=2", "offset: must be given once"],
      ["page=2", 'querystring: Unrecognized key: "page"'],
    ]) {
      expect(await get(`/v1/subnames/acme/alice?${query}`), query).toEqual({
        status: 400,
        cache: "no-store",
        body: { error: "invalid_request", detail },
      });
    }
  });

  it("sends no-store on every answer of these reads, errors included", async () => {
    for (const url of [
      "/v1/subname-policy/nowhere",
      "/v1/subnames/acme/a%20b",
      "/v1/subnames/acme/alice/x?bogus=1",
      "/v1/chain-policy/plain",
      "/v1/chain-address/acme/a.b.c/ethereum",
      "/v1/chain-address/acme/alice/dogecoin",
    ]) {
      const answer = await get(url);
      expect(answer.status, url).toBeGreaterThanOrEqual(400);
      expect(answer.cache, url).toBe("no-store");
    }
  });

  it("reads the chain policy, and answers no_resolver for a namespace without records", async () => {
    expect(await get("/v1/chain-policy/acme")).toEqual({
      status: 200,
      cache: "no-store",
      body: { version: 1, namespace: "acme", networks: ["ethereum", "bitcoin"] },
    });
    expect(await get("/v1/chain-policy/plain")).toMatchObject({
      status: 409,
      body: { error: "no_resolver", namespace: "plain" },
    });
  });

  it("reads network addresses, keeping errors apart from address: null", async () => {
    expect(await get("/v1/chain-address/acme/alice/ethereum")).toEqual({
      status: 200,
      cache: "no-store",
      body: { name: "alice.acme", network: "ethereum", address: DEMO_ETHEREUM },
    });
    expect((await get("/v1/chain-address/acme/alice/bitcoin")).body).toEqual({
      name: "alice.acme",
      network: "bitcoin",
      address: null,
    });
    expect((await get("/v1/chain-address/acme/pay.alice/bitcoin")).body).toEqual({
      name: "pay.alice.acme",
      network: "bitcoin",
      address: null,
    });
    const errors = [
      ["/v1/chain-address/acme/alice/solana", 409, { error: "chain_disabled", network: "solana" }],
      ["/v1/chain-address/acme/alice/dogecoin", 400, { error: "unsupported_network", network: "dogecoin" }],
      ["/v1/chain-address/acme/gone/ethereum", 404, { error: "name_not_found", name: "gone.acme" }],
      ["/v1/chain-address/acme/nobody/ethereum", 404, { error: "name_not_found", name: "nobody.acme" }],
      ["/v1/chain-address/acme/old/ethereum", 404, { error: "name_expired", name: "old.acme" }],
      ["/v1/chain-address/acme/old.alice/ethereum", 404, { error: "name_not_found", name: "old.alice.acme" }],
      [
        "/v1/chain-address/nowhere/alice/ethereum",
        404,
        { error: "namespace_not_found", namespace: "nowhere" },
      ],
      ["/v1/chain-address/plain/carol/ethereum", 409, { error: "no_resolver", namespace: "plain" }],
    ] as const;
    for (const [url, status, body] of errors) {
      const got = await get(url);
      expect({ url, status: got.status, body: got.body }).toEqual({ url, status, body });
    }
    expect((await get("/v1/chain-address/acme/a.b.alice/ethereum")).body).toMatchObject({
      error: "invalid_name",
    });
  });

  it("answers 503 chain_unavailable when the chain cannot be read, never a substitute", async () => {
    const offline = await buildApp({
      config: testConfig(),
      db: database,
      redis: null,
      chainClient: new ChainClient("http://127.0.0.1:9", devnet.networkPassphrase),
    });
    try {
      for (const url of [
        "/v1/subname-policy/acme",
        "/v1/subnames/acme/alice/pay",
        "/v1/subnames/acme/alice",
        "/v1/chain-policy/acme",
        "/v1/chain-address/acme/alice/ethereum",
      ]) {
        const response = await offline.inject({ url });
        expect({ url, status: response.statusCode, body: response.json() }).toEqual({
          url,
          status: 503,
          body: { error: "chain_unavailable" },
        });
      }
    } finally {
      await offline.close();
    }
  });
});
