// The record, claim and marketplace helpers against the real app on devnets, signed with the SDK as wallets would:
// each helper's verify step accepts what the service really prepares, the relays send it, and the chain shows it.
import { demoKeypair } from "@namereg/devnet";
import {
  AllocatorFns,
  namespaceNode,
  PrimaryFns,
  RegistryFns,
  ResolverFns,
  xlmToStroops,
} from "@namereg/protocol";
import { type App, buildApp, ChainClient } from "@namereg/server";
import {
  indexDemo,
  keypairWallet,
  type MarketHarness,
  startMarketHarness,
  TEST_FEE_BPS,
  testConfig,
} from "@namereg/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi, type NameregApi, unwrap } from "./api.ts";
import { withdrawClaim } from "./claims.ts";
import {
  setDisplayName,
  setNameAddress,
  setPaymentRecord,
  setPrimaryName,
  setTextRecord,
} from "./holder-changes.ts";
import { acceptTransfer, payBond, payDeposit, proposeTransfer } from "./market.ts";
import { signIn } from "./sign-in.ts";

describe("record and claim helpers on the demo devnet", () => {
  let demo: Awaited<ReturnType<typeof indexDemo>>;
  let app: App;
  let api: NameregApi;
  let chain: ChainClient;
  let passphrase: string;

  beforeAll(async () => {
    demo = await indexDemo("postgres");
    const { rpcUrl, networkPassphrase, contracts } = demo.devnet;
    passphrase = networkPassphrase;
    demo.devnet.setCloseInterval(200);
    chain = new ChainClient(rpcUrl, networkPassphrase);
    app = await buildApp({
      config: testConfig({
        NETWORK_PASSPHRASE: networkPassphrase,
        PRIMARY_ID: contracts.primary,
        LOOKUP_ID: contracts.lookup,
        ALLOCATOR_ID: contracts.allocator,
      }),
      db: demo.database,
      redis: null,
      chainClient: chain,
    });
    api = createApi({ baseUrl: await app.listen({ port: 0, host: "127.0.0.1" }) });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await demo?.database.close();
    await demo?.devnet.stop();
  });

  it("bob sets his text, payment, display and primary names, then his registrar address", async () => {
    const bob = demoKeypair("bob");
    const wallet = keypairWallet(bob, passphrase);
    const resolver = demo.devnet.demo?.namespaces.acme.resolver ?? "";
    const node = (
      await unwrap(
        api.GET("/v1/records/{namespace}/{label}", { params: { path: { namespace: "acme", label: "bob" } } }),
      )
    ).node;

    await setTextRecord(api, { name: "bob.acme", key: "url", value: "https://bob.example" }, wallet);
    expect(await chain.read(resolver, ResolverFns.text, { node, key: "url" })).toBe("https://bob.example");
    await setPaymentRecord(api, { name: "bob.acme", address: bob.publicKey(), memo: null }, wallet);
    await setDisplayName(api, { name: "bob.acme" }, wallet);
    await setPrimaryName(api, { name: "bob.acme" }, wallet);
    expect(
      await chain.read(demo.devnet.contracts.primary, PrimaryFns.primary, { address: bob.publicKey() }),
    ).toBe("bob.acme");
    const records = await unwrap(
      api.GET("/v1/records/{namespace}/{label}", { params: { path: { namespace: "acme", label: "bob" } } }),
    );
    expect(records).toMatchObject({ address: bob.publicKey(), displayName: true, primaryName: true });

    const carol = demoKeypair("carol").publicKey();
    const set = await setNameAddress(api, { name: "bob.acme", address: carol }, wallet);
    expect(set).toMatchObject({ ok: true });
  });

  it("the claimant of newco withdraws its claim", async () => {
    const newco = keypairWallet(demoKeypair("newco"), passphrase);
    const id = String(demo.devnet.demo?.claims.newco);
    const token = await signIn(api, newco);
    const done = await withdrawClaim(api, { id }, { token }, newco);
    expect(done).toMatchObject({ ok: true });
    const claim = await chain.read(demo.devnet.contracts.allocator, AllocatorFns.claim, { id: BigInt(id) });
    expect(claim?.state).toBe("withdrawn");
  });
});

describe("marketplace helpers with the escrow watcher", () => {
  let h: MarketHarness;
  let api: NameregApi;

  beforeAll(async () => {
    h = await startMarketHarness("postgres");
    h.devnet.setCloseInterval(100);
    api = createApi({ baseUrl: await h.app.listen({ port: 0, host: "127.0.0.1" }) });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it("a seller and a buyer complete a sale with the helpers alone", async () => {
    const passphrase = h.devnet.networkPassphrase;
    const sellerKey = await h.funded();
    const namespace = await h.namespaceFor(sellerKey);
    await h.sync();
    const seller = keypairWallet(sellerKey, passphrase);
    const session = { token: await signIn(api, seller), namespace };
    const headers = { authorization: `Bearer ${session.token}`, "x-service-namespace": namespace };
    const listed = await unwrap(
      api.POST("/console/market/listings", { body: { namespace, priceXlm: "40" }, headers }),
    );
    await payBond(api, { listingId: listed.listing.id }, listed.bond, session, seller);
    await h.sync();

    const buyerKey = await h.funded();
    const buyer = keypairWallet(buyerKey, passphrase);
    const intent = await unwrap(
      api.POST("/v1/market/listings/{id}/intent", {
        params: { path: { id: listed.listing.id } },
        body: { account: buyerKey.publicKey() },
      }),
    );
    await proposeTransfer(
      api,
      { listingId: listed.listing.id, buyer: buyerKey.publicKey() },
      session,
      seller,
    );
    await payDeposit(api, { listingId: listed.listing.id }, intent.pay, buyer);
    await h.sync();
    const before = await h.balance(sellerKey.publicKey());
    await acceptTransfer(api, { listingId: listed.listing.id, namespace }, buyer);
    await h.sync();

    const record = await new ChainClient(h.devnet.rpcUrl, passphrase).read(
      h.devnet.contracts.registry,
      RegistryFns.namespace,
      { node: namespaceNode(namespace) },
    );
    expect(record?.owner).toBe(buyerKey.publicKey());
    const price = xlmToStroops("40");
    const bond = xlmToStroops(listed.bond.amountXlm);
    expect((await h.balance(sellerKey.publicKey())) - before).toBe(
      price - (price * BigInt(TEST_FEE_BPS)) / 10_000n + bond,
    );
  });
});
