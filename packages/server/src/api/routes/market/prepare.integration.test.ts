// The marketplace's prepare routes (docs/api.md "Marketplace", **Chosen**) on a demo devnet with the escrow
// watcher: a namespace sold end to end with nothing but prepared transactions the seller's and the buyer's
// wallets signed — the bond, the proposal, the deposit, the acceptance — checked on chain and in the escrow's
// payouts; a proposal withdrawn; each refusal; and what the two relays will not send.
import { namespaceNode, RegistryFns, xlmToStroops } from "@namereg/protocol";
import {
  Asset,
  type Keypair,
  Memo,
  Operation,
  type Transaction,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketHarness, startMarketHarness, TEST_FEE_BPS } from "../../../../test/fixtures/market.ts";
import { bearer, signIn } from "../../../../test/fixtures/wallet-auth.ts";
import { ChainClient } from "../../../chain/chain-client.ts";
import { buildApp } from "../../app.ts";

describe("marketplace transactions prepared for the seller's and the buyer's wallets", () => {
  let h: MarketHarness;
  let chain: ChainClient;
  let registry: string;
  let escrow: string;

  beforeAll(async () => {
    h = await startMarketHarness("postgres");
    chain = new ChainClient(h.devnet.rpcUrl, h.devnet.networkPassphrase);
    registry = h.devnet.contracts.registry;
    escrow = h.escrow.publicKey();
    // Ledgers close on their own from here too, so what the relays submit becomes final while they poll.
    h.devnet.setCloseInterval(100);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const call = async (url: string, payload?: object, headers: Record<string, string> = {}) => {
    const response = await h.app.inject({
      method: "POST",
      url,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
    return { status: response.statusCode, body: response.json() };
  };
  const get = async (url: string, headers: Record<string, string>) =>
    (await h.app.inject({ url, headers })).json();

  const decode = (text: string) =>
    TransactionBuilder.fromXDR(text, h.devnet.networkPassphrase) as Transaction;
  const signed = (text: string, signer: Keypair) => {
    const tx = decode(text);
    tx.sign(signer);
    return tx.toXDR();
  };
  const hashOf = (text: string) => Buffer.from(decode(text).hash()).toString("hex");

  /** The one payment a prepared envelope makes, as a wallet reads it before signing. */
  function paymentOf(text: string) {
    const tx = decode(text);
    expect(tx.operations).toHaveLength(1);
    const [op] = tx.operations;
    if (op?.type !== "payment") throw new Error(`not a payment: ${op?.type}`);
    const memo = tx.memo;
    return {
      source: tx.source,
      destination: op.destination,
      native: op.asset.isNative(),
      amount: op.amount,
      memo: memo.type === "hash" ? Buffer.from(memo.value as Buffer).toString("hex") : memo.type,
      fee: tx.fee,
      maxTime: Number(tx.timeBounds?.maxTime),
    };
  }

  /** The one registry call a prepared envelope makes. */
  function registryCall<F extends "propose_transfer" | "accept_transfer" | "cancel_transfer">(
    text: string,
    fn: F,
    source: string,
  ) {
    const tx = decode(text);
    expect(tx.source).toBe(source);
    const [op] = tx.operations;
    if (op?.type !== "invokeHostFunction" || op.func.type !== "hostFunctionTypeInvokeContract") {
      throw new Error("not a contract call");
    }
    expect(op.func.invokeContract.functionName.toString()).toBe(fn);
    return RegistryFns[fn].decodeArgs(op.func.invokeContract.args as xdr.ScVal[]);
  }

  interface Seller {
    readonly key: Keypair;
    readonly namespace: string;
    readonly headers: Record<string, string>;
  }

  async function seller(): Promise<Seller> {
    const key = await h.funded();
    const namespace = await h.namespaceFor(key);
    await h.sync();
    const token = await signIn(h.app, key);
    return { key, namespace, headers: { ...bearer(token), "x-service-namespace": namespace } };
  }

  async function propose(s: Seller, listingId: string, buyer: Keypair) {
    const prepared = await call(
      `/console/market/listings/${listingId}/propose/prepare`,
      { buyer: buyer.publicKey(), expiresInSeconds: 3600 },
      s.headers,
    );
    expect(prepared.status).toBe(200);
    const submitted = await call("/console/tx/submit", { xdr: signed(prepared.body.xdr, s.key) }, s.headers);
    expect(submitted.status).toBe(200);
    return prepared.body as { expires: string };
  }

  it("sells a namespace with prepared transactions only: bond, proposal, deposit, acceptance", async () => {
    const s = await seller();
    const node = namespaceNode(s.namespace);
    const listed = await call(
      "/console/market/listings",
      { namespace: s.namespace, priceXlm: "50" },
      s.headers,
    );
    expect(listed.status).toBe(201);
    const { listing, bond } = listed.body as {
      listing: { id: string };
      bond: { amountXlm: string; memoHash: string };
    };

    // The bond: one payment of the bond to the escrow with the listing's memo, from the seller.
    const bondPrepared = await call(
      `/console/market/listings/${listing.id}/bond/prepare`,
      undefined,
      s.headers,
    );
    expect(bondPrepared).toEqual({
      status: 200,
      body: {
        ok: true,
        xdr: expect.any(String),
        signer: s.key.publicKey(),
        to: escrow,
        asset: "native",
        amountXlm: "10.0000000",
        memoType: "hash",
        memoHash: bond.memoHash,
        fee: "100",
        validUntil: expect.any(String),
        network: h.devnet.networkPassphrase,
      },
    });
    const bondPayment = paymentOf(bondPrepared.body.xdr);
    expect(bondPayment).toEqual({
      source: s.key.publicKey(),
      destination: escrow,
      native: true,
      amount: bond.amountXlm,
      memo: bond.memoHash,
      fee: "100",
      maxTime: Date.parse(bondPrepared.body.validUntil) / 1000,
    });
    // Valid for 15 minutes: a signature cannot be held for later.
    expect(bondPayment.maxTime - Date.now() / 1000).toBeLessThanOrEqual(900);
    const bondTx = signed(bondPrepared.body.xdr, s.key);
    expect(await call("/console/tx/submit", { xdr: bondTx }, s.headers)).toEqual({
      status: 200,
      body: { ok: true, txHash: hashOf(bondTx), ledger: expect.any(Number) },
    });
    await h.sync();

    const buyer = await h.funded();
    expect((await h.intent(listing.id, buyer.publicKey())).status).toBe(200);
    expect(await get("/console/market/listings", s.headers)).toEqual({
      namespace: s.namespace,
      terms: { feeBps: TEST_FEE_BPS, bondBps: 1000, bondMinXlm: 10 },
      listings: [
        {
          id: listing.id,
          node,
          priceXlm: "50.0000000",
          feeBps: TEST_FEE_BPS,
          state: "active",
          bond: { to: escrow, amountXlm: "10.0000000", memoHash: bond.memoHash, posted: true },
          intents: [
            {
              id: expect.any(String),
              buyer: buyer.publicKey(),
              expiresAt: expect.any(String),
              funded: false,
            },
          ],
          proposal: null,
        },
      ],
      settled: [],
    });

    // The proposal, to the buyer with an intent, for an hour of chain time.
    const proposal = await call(
      `/console/market/listings/${listing.id}/propose/prepare`,
      { buyer: buyer.publicKey(), expiresInSeconds: 3600 },
      s.headers,
    );
    expect(proposal).toEqual({
      status: 200,
      body: {
        ok: true,
        xdr: expect.any(String),
        signer: s.key.publicKey(),
        namespace: s.namespace,
        node,
        registryId: registry,
        network: h.devnet.networkPassphrase,
        buyer: buyer.publicKey(),
        expires: expect.stringMatching(/^\d+$/),
        expiresAt: expect.any(String),
      },
    });
    const expires = BigInt(proposal.body.expires);
    expect(registryCall(proposal.body.xdr, "propose_transfer", s.key.publicKey())).toEqual({
      node,
      to: buyer.publicKey(),
      expires,
    });
    expect(expires - h.latestCloseTime()).toBeGreaterThan(3500n);
    expect(
      (await call("/console/tx/submit", { xdr: signed(proposal.body.xdr, s.key) }, s.headers)).status,
    ).toBe(200);
    expect(await chain.read(registry, RegistryFns.transfer_proposal, { node })).toEqual({
      to: buyer.publicKey(),
      expires,
    });
    // The seller's view reads the proposal from the chain.
    expect((await get("/console/market/listings", s.headers)).listings[0].proposal).toEqual({
      to: buyer.publicKey(),
      expires: proposal.body.expires,
      expiresAt: new Date(Number(expires) * 1000).toISOString(),
    });

    // The deposit: the price, to the escrow, with the intent's memo, from the buyer.
    const deposit = await call(`/v1/market/listings/${listing.id}/pay/prepare`, {
      account: buyer.publicKey(),
    });
    expect(deposit.status).toBe(200);
    const intent = (await h.intent(listing.id, buyer.publicKey())).body;
    expect(deposit.body).toMatchObject({
      signer: buyer.publicKey(),
      to: escrow,
      amountXlm: "50.0000000",
      memoHash: intent.pay.memoHash,
      intent: intent.intent,
    });
    expect(paymentOf(deposit.body.xdr)).toMatchObject({
      source: buyer.publicKey(),
      destination: escrow,
      amount: "50.0000000",
      memo: intent.pay.memoHash,
    });
    const depositTx = signed(deposit.body.xdr, buyer);
    expect(await call("/records/submit", { signedXdr: depositTx })).toEqual({
      status: 200,
      body: { ok: true, txHash: hashOf(depositTx), ledger: expect.any(Number) },
    });
    await h.sync();
    const view = await get("/console/market/listings", s.headers);
    expect(view.listings[0].intents[0]).toMatchObject({ buyer: buyer.publicKey(), funded: true });

    // The acceptance, by the buyer; then the escrow pays the seller the price less the fee, and returns the bond.
    const sellerBefore = await h.balance(s.key.publicKey());
    const accept = await call(`/v1/market/listings/${listing.id}/accept/prepare`, {
      account: buyer.publicKey(),
    });
    expect(accept).toEqual({
      status: 200,
      body: {
        ok: true,
        xdr: expect.any(String),
        signer: buyer.publicKey(),
        namespace: s.namespace,
        node,
        registryId: registry,
        network: h.devnet.networkPassphrase,
      },
    });
    expect(registryCall(accept.body.xdr, "accept_transfer", buyer.publicKey())).toEqual({ node });
    expect((await call("/records/submit", { signedXdr: signed(accept.body.xdr, buyer) })).status).toBe(200);
    expect((await chain.read(registry, RegistryFns.namespace, { node }))?.owner).toBe(buyer.publicKey());
    await h.sync();
    const price = xlmToStroops("50");
    const fee = (price * BigInt(TEST_FEE_BPS)) / 10_000n;
    expect((await h.balance(s.key.publicKey())) - sellerBefore).toBe(price - fee + xlmToStroops("10"));
  });

  it("withdraws a proposal on chain; a second withdrawal finds none", async () => {
    const s = await seller();
    const node = namespaceNode(s.namespace);
    const listingId = await h.list(s.key, s.namespace, "20");
    const buyer = await h.funded();
    expect((await h.intent(listingId, buyer.publicKey())).status).toBe(200);
    await propose(s, listingId, buyer);
    expect(await chain.read(registry, RegistryFns.transfer_proposal, { node })).not.toBeNull();

    const url = `/console/market/listings/${listingId}/cancel-proposal/prepare`;
    const cancel = await call(url, undefined, s.headers);
    expect(cancel).toEqual({
      status: 200,
      body: {
        ok: true,
        xdr: expect.any(String),
        signer: s.key.publicKey(),
        namespace: s.namespace,
        node,
        registryId: registry,
        network: h.devnet.networkPassphrase,
      },
    });
    expect(registryCall(cancel.body.xdr, "cancel_transfer", s.key.publicKey())).toEqual({ node });
    expect(
      (await call("/console/tx/submit", { xdr: signed(cancel.body.xdr, s.key) }, s.headers)).status,
    ).toBe(200);
    expect(await chain.read(registry, RegistryFns.transfer_proposal, { node })).toBeNull();
    expect(await call(url, undefined, s.headers)).toEqual({
      status: 409,
      body: {
        error: "no_transfer_proposal",
        namespace: s.namespace,
        detail: `the registry holds no transfer proposal of ${s.namespace}`,
      },
    });
    expect((await get("/console/market/listings", s.headers)).listings[0].proposal).toBeNull();

    // Cancelled without a funded deposit: once the watcher settles it, the listing is among the settled ones
    // with its bond paid back to the seller.
    const before = await h.balance(s.key.publicKey());
    expect((await call(`/console/market/listings/${listingId}/cancel`, undefined, s.headers)).status).toBe(
      200,
    );
    expect((await get("/console/market/listings", s.headers)).listings[0]).toMatchObject({
      id: listingId,
      state: "cancelling",
    });
    await h.sync();
    const after = await get("/console/market/listings", s.headers);
    expect(after.listings).toEqual([]);
    expect(after.settled).toEqual([
      {
        id: listingId,
        priceXlm: "20.0000000",
        state: "closed",
        closedAt: expect.any(String),
        bond: {
          amountXlm: "10.0000000",
          payouts: [
            {
              purpose: "bond_return",
              to: s.key.publicKey(),
              amountXlm: "10.0000000",
              state: "paid",
              txHash: expect.stringMatching(/^[0-9a-f]{64}$/),
            },
          ],
        },
      },
    ]);
    expect((await h.balance(s.key.publicKey())) - before).toBe(xlmToStroops("10"));
  });

  it("answers each listed error code for a crafted bad request", async () => {
    const s = await seller();
    const listingId = await h.list(s.key, s.namespace, "20");
    const buyer = await h.funded();
    const stranger = await h.funded();
    expect((await h.intent(listingId, buyer.publicKey())).status).toBe(200);
    await propose(s, listingId, buyer);
    const unknown = "00000000-0000-0000-0000-000000000000";
    const cases: [string, object | undefined, Record<string, string>, number, object][] = [
      [
        `/v1/market/listings/${listingId}/pay/prepare`,
        { account: "GNOTANACCOUNT" },
        {},
        400,
        { error: "invalid_account", detail: "account: a G… public key" },
      ],
      [
        `/v1/market/listings/${listingId}/pay/prepare`,
        { account: stranger.publicKey() },
        {},
        409,
        {
          error: "intent_required",
          id: listingId,
          account: stranger.publicKey(),
          detail: `no unexpired intent of ${stranger.publicKey()} on this listing: POST /v1/market/listings/${listingId}/intent first`,
        },
      ],
      [
        `/v1/market/listings/${unknown}/pay/prepare`,
        { account: buyer.publicKey() },
        {},
        409,
        { error: "listing_not_active", id: unknown },
      ],
      [
        `/v1/market/listings/${listingId}/accept/prepare`,
        { account: stranger.publicKey() },
        {},
        409,
        {
          error: "no_transfer_proposal",
          namespace: s.namespace,
          account: stranger.publicKey(),
          detail: `the registry has no live proposal to transfer ${s.namespace} to ${stranger.publicKey()}: the seller proposes first`,
        },
      ],
      [
        `/v1/market/listings/${unknown}/accept/prepare`,
        { account: buyer.publicKey() },
        {},
        404,
        { error: "not_found", id: unknown },
      ],
      [
        `/console/market/listings/${listingId}/propose/prepare`,
        { buyer: stranger.publicKey() },
        s.headers,
        409,
        {
          error: "intent_required",
          id: listingId,
          account: stranger.publicKey(),
          detail: `${stranger.publicKey()} holds no unexpired intent on this listing`,
        },
      ],
      [
        `/console/market/listings/${listingId}/propose/prepare`,
        { buyer: buyer.publicKey(), expiresInSeconds: 10 },
        s.headers,
        400,
        { error: "invalid_request", detail: expect.stringMatching(/^expiresInSeconds: /) },
      ],
      [
        `/console/market/listings/${listingId}/bond/prepare`,
        undefined,
        s.headers,
        409,
        {
          error: "listing_not_active",
          id: listingId,
          detail: "only a listing still waiting for its bond, by the account that listed it, takes a bond",
        },
      ],
      [
        `/console/market/listings/${unknown}/bond/prepare`,
        undefined,
        s.headers,
        404,
        { error: "not_found", id: unknown },
      ],
      [
        `/console/market/listings/${listingId}/propose/prepare`,
        { buyer: buyer.publicKey() },
        {},
        401,
        { error: "unauthorized", detail: "Authorization: a Bearer session token is required" },
      ],
    ];
    for (const [url, payload, headers, status, body] of cases) {
      const got = await call(url, payload, headers);
      expect({ url, ...got }).toEqual({ url, status, body });
    }

    // With the marketplace off, the buyer's routes answer market_disabled before anything else.
    const off = await buildApp({
      config: { ...h.config, market: { ...h.config.market, enabled: false } },
      db: h.database,
      redis: null,
      chainClient: chain,
    });
    try {
      const response = await off.inject({
        method: "POST",
        url: `/v1/market/listings/${listingId}/pay/prepare`,
        payload: { account: buyer.publicKey() },
      });
      expect([response.statusCode, response.json().error]).toEqual([409, "market_disabled"]);
    } finally {
      await off.close();
    }
  });

  it("builds no deposit its buyer cannot pay above the account's reserve", async () => {
    const s = await seller();
    // 20,000 XLM: twice what a friendbot account holds (its bond, 2,000 XLM, the seller can post).
    const listingId = await h.list(s.key, s.namespace, "20000");
    const buyer = await h.funded();
    expect((await h.intent(listingId, buyer.publicKey())).status).toBe(200);
    expect(
      await call(`/v1/market/listings/${listingId}/pay/prepare`, { account: buyer.publicKey() }),
    ).toEqual({
      status: 409,
      body: {
        error: "insufficient_balance",
        detail: `${buyer.publicKey()} can spend 9999.0000000 XLM above its reserve; the payment needs 20000.0000100 XLM with its fee`,
      },
    });
  });

  it("relays only the payments it prepares, each for its own payer, amount and memo", async () => {
    const s = await seller();
    const listingId = await h.list(s.key, s.namespace, "20");
    const other = await seller();
    const buyer = await h.funded();
    const intent = (await h.intent(listingId, buyer.publicKey())).body;
    const memo = intent.pay.memoHash;
    const before = await h.balance(buyer.publicKey());

    const payment = async (from: Keypair, amount: string, memoHex: string, opts: { to?: string } = {}) => {
      const account = await h.server.getAccount(from.publicKey());
      const tx = new TransactionBuilder(account, {
        fee: "100",
        networkPassphrase: h.devnet.networkPassphrase,
      })
        .addOperation(Operation.payment({ destination: opts.to ?? escrow, asset: Asset.native(), amount }))
        .addMemo(Memo.hash(memoHex))
        .setTimeout(300)
        .build();
      tx.sign(from);
      return tx.toXDR();
    };
    const refused = (detail: string) => ({
      status: 400,
      body: { error: "transaction_not_allowed", detail: `signedXdr: ${detail}` },
    });
    expect(await call("/records/submit", { signedXdr: await payment(buyer, "19", memo) })).toEqual(
      refused("pays 19.0000000 XLM, not the listing's price of 20.0000000 XLM"),
    );
    expect(await call("/records/submit", { signedXdr: await payment(other.key, "20", memo) })).toEqual(
      refused(`is paid by ${other.key.publicKey()}, not by the intent's buyer ${buyer.publicKey()}`),
    );
    expect(await call("/records/submit", { signedXdr: await payment(buyer, "20", "cd".repeat(32)) })).toEqual(
      refused("the hash memo names no current intent and no listing bond of this escrow"),
    );
    // Billing is off in this service: its account is no destination either.
    const elsewhere = (await h.funded()).publicKey();
    expect(
      await call("/records/submit", { signedXdr: await payment(buyer, "20", memo, { to: elsewhere }) }),
    ).toEqual(
      refused(
        `pays ${elsewhere}, which is neither the marketplace escrow nor the billing account; this service relays no other payment`,
      ),
    );

    // The console relays its own namespace's transactions only: not a deposit, not another namespace's proposal.
    const consoleRefused = (detail: string) => ({
      status: 400,
      body: { error: "invalid_request", detail: `xdr: ${detail}` },
    });
    const otherIntent = (await h.intent(listingId, other.key.publicKey())).body;
    expect(
      await call(
        "/console/tx/submit",
        { xdr: await payment(other.key, "20", otherIntent.pay.memoHash) },
        other.headers,
      ),
    ).toEqual(consoleRefused(`is not a payment of ${other.namespace} (its listing's bond or its billing)`));
    const foreign = new TransactionBuilder(await h.server.getAccount(other.key.publicKey()), {
      fee: "100",
      networkPassphrase: h.devnet.networkPassphrase,
    })
      .addOperation(
        Operation.invokeContractFunction({
          contract: registry,
          function: "cancel_transfer",
          args: RegistryFns.cancel_transfer.encodeArgs({ node: namespaceNode(s.namespace) }),
        }),
      )
      .setTimeout(300)
      .build();
    foreign.sign(other.key);
    expect(await call("/console/tx/submit", { xdr: foreign.toXDR() }, other.headers)).toEqual(
      consoleRefused(
        `is not a console transaction of ${other.namespace} (set_subname_policy on its registrar, set_chain_policy on its resolver, propose_transfer or cancel_transfer of its node on the registry, its listing's bond or its billing payment)`,
      ),
    );
    // Nothing was sent: the buyer paid nothing, not even a fee.
    expect(await h.balance(buyer.publicKey())).toBe(before);
  });
});
