// The prepare → sign → submit helpers against the real app on the demo devnet, signed with the SDK as a wallet
// would: alice creates and removes a subname of alice.acme and sets a network address on it, and each change is
// read back live from the chain through the API.

import { demoKeypair } from "@namereg/devnet";
import { type App, buildApp, ChainClient } from "@namereg/server";
import { indexDemo, keypairWallet, testConfig } from "@namereg/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi, type NameregApi, unwrap } from "./api.ts";
import { changeSubname, setChainAddress } from "./holder-changes.ts";
import type { SignWith } from "./transactions.ts";

const alice = demoKeypair("alice");

describe("prepare, sign and submit on the demo devnet", () => {
  let demo: Awaited<ReturnType<typeof indexDemo>>;
  let app: App;
  let api: NameregApi;
  let wallet: SignWith;
  beforeAll(async () => {
    demo = await indexDemo("pglite");
    const { rpcUrl, networkPassphrase } = demo.devnet;
    // Indexed; from here the chain closes ledgers on its own, as a network does, so submissions get included.
    demo.devnet.setCloseInterval(200);
    app = await buildApp({
      config: testConfig(),
      db: demo.database,
      redis: null,
      chainClient: new ChainClient(rpcUrl, networkPassphrase),
    });
    api = createApi({ baseUrl: await app.listen({ port: 0, host: "127.0.0.1" }) });
    wallet = keypairWallet(alice, networkPassphrase);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await demo?.database.close();
    await demo?.devnet.stop();
  });

  const child = (name: string) =>
    unwrap(
      api.GET("/v1/subnames/{namespace}/{label}/{child}", {
        params: { path: { namespace: "acme", label: "alice", child: name } },
      }),
    );

  it("creates a subname, then removes it with the generation the chain reports", async () => {
    expect((await child("wallet")).record).toBeNull();
    const created = await changeSubname(
      api,
      {
        name: "wallet.alice.acme",
        action: "create",
        parentGeneration: "1",
        generation: null,
        address: alice.publicKey(),
      },
      wallet,
    );
    expect(created).toMatchObject({ ok: true, txHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const record = (await child("wallet")).record;
    expect(record).toMatchObject({
      exists: true,
      active: true,
      address: alice.publicKey(),
      controller: alice.publicKey(),
    });

    const removed = await changeSubname(
      api,
      {
        name: "wallet.alice.acme",
        action: "remove",
        parentGeneration: "1",
        generation: record?.generation ?? "",
      },
      wallet,
    );
    expect(removed).toMatchObject({ ok: true });
    expect((await child("wallet")).record).toMatchObject({ exists: false, active: false });
  });

  it("sets a network address and reads it back", async () => {
    const set = await setChainAddress(
      api,
      {
        name: "alice.acme",
        chainAddress: { network: "bitcoin", address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" },
      },
      wallet,
    );
    expect(set).toMatchObject({ ok: true });
    const read = await unwrap(
      api.GET("/v1/chain-address/{namespace}/{name}/{network}", {
        params: { path: { namespace: "acme", name: "alice", network: "bitcoin" } },
      }),
    );
    expect(read).toEqual({
      name: "alice.acme",
      network: "bitcoin",
      address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    });
  });
});
