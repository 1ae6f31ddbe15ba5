// The claim fee end to end on the demo devnet, through the public routes, with wallets made of nothing but the
// SDK: the quote, receipts of every outcome with their refund/treasury split (floor rounding on an odd fee),
// reserved namespaces without receipts, credit recovery paying the payee while another account signs, and the
// console's announce (quote required, quote changed, insufficient balance, verified by @namereg/client).
import { verifyAnnounce } from "@namereg/client";
import { demoKeypair, type NamingDevnet, settlingWallet, startNamingDevnet, Wallet } from "@namereg/devnet";
import { AllocatorFns, applyBps, REFUND_BPS, xlmToStroops } from "@namereg/protocol";
import {
  Account,
  Asset,
  Keypair,
  Operation,
  rpc,
  type Transaction,
  TransactionBuilder,
} from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../../test/fixtures/database.ts";
import { bearer, signIn } from "../../../../test/fixtures/wallet-auth.ts";
import { ChainClient } from "../../../chain/chain-client.ts";
import { type App, buildApp } from "../../app.ts";

const admin = demoKeypair("admin");
const treasury = demoKeypair("treasury");
const DEMO_FEE = xlmToStroops("100");
/** An odd fee, so that 80% of it is not whole: floor rounding shows. */
const ODD_FEE = DEMO_FEE + 1n;

describe("claim fee on the demo devnet", () => {
  let devnet: NamingDevnet;
  let database: TestDatabase;
  let app: App;
  let wallet: Wallet;
  let server: rpc.Server;

  beforeAll(async () => {
    devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 0 });
    database = await createTestDatabase("postgres");
    const config = testConfig({
      RPC_URL: devnet.rpcUrl,
      NETWORK_PASSPHRASE: devnet.networkPassphrase,
      REGISTRY_ID: devnet.contracts.registry,
      ALLOCATOR_ID: devnet.contracts.allocator,
    });
    const chainClient = new ChainClient(devnet.rpcUrl, devnet.networkPassphrase);
    app = await buildApp({ config, db: database, redis: null, chainClient });
    wallet = settlingWallet(devnet);
    server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
  });
  afterAll(async () => {
    await app?.close();
    await devnet?.stop();
    await database?.close();
  });

  const get = async (url: string) => {
    const response = await app.inject({ url });
    return { status: response.statusCode, body: response.json(), headers: response.headers };
  };
  const post = async (url: string, payload: object, headers: Record<string, string> = {}) => {
    const response = await app.inject({ method: "POST", url, payload, headers });
    return { status: response.statusCode, body: response.json() };
  };
  async function funded(): Promise<Keypair> {
    const kp = Keypair.random();
    expect((await fetch(`${devnet.rpcUrl}/friendbot?addr=${kp.publicKey()}`)).status).toBe(200);
    return kp;
  }
  async function nativeBalance(account: string): Promise<bigint> {
    const entry = (await server.getAccountEntry(account)) as { balance: { toString(): string } };
    return BigInt(entry.balance.toString());
  }
  async function announce(claimant: Keypair, label: string): Promise<bigint> {
    const policy = await wallet.read(
      admin.publicKey(),
      devnet.contracts.allocator,
      AllocatorFns.fee_policy,
      {},
    );
    if (policy === null) throw new Error("no policy");
    const { value } = await wallet.invoke(claimant, devnet.contracts.allocator, AllocatorFns.announce, {
      claimant: claimant.publicKey(),
      label,
      basis: ["trademark"],
      evidence: [],
      fee: policy,
    });
    return value;
  }
  const setFee = (amount: bigint) =>
    wallet.invoke(admin, devnet.contracts.allocator, AllocatorFns.set_fee_policy, {
      token: devnet.contracts.nativeToken,
      amount,
      recipient: treasury.publicKey(),
    });

  it("quotes the chain's policy in the native asset, not to be cached", async () => {
    const { status, body, headers } = await get("/v1/claim-fee");
    expect(status).toBe(200);
    expect(headers["cache-control"]).toBe("no-store");
    expect(body).toEqual({
      allocatorId: devnet.contracts.allocator,
      token: Asset.native().contractId(devnet.networkPassphrase),
      amount: DEMO_FEE.toString(),
      recipient: treasury.publicKey(),
      decimals: 7,
      asset: "XLM",
      network: devnet.networkPassphrase,
      refundBps: { Awarded: 0, Rejected: 10000, Stuck: 10000, Withdrawn: 8000, Expired: 8000 },
      rounding: "floor",
    });
  });

  it("shows the demo's receipts: awarded, held, none for reserved or unknown labels", async () => {
    const winner = await get("/v1/claim-fee/winner");
    expect(winner.status).toBe(200);
    expect(winner.body.policy.amount).toBe(DEMO_FEE.toString());
    expect(winner.body.receipt).toEqual({
      claimant: demoKeypair("winner").publicKey(),
      amount: DEMO_FEE.toString(),
      outcome: "Awarded",
      refundAmount: "0",
      treasuryAmount: DEMO_FEE.toString(),
    });
    expect((await get("/v1/claim-fee/newco")).body.receipt).toMatchObject({
      outcome: "Held",
      refundAmount: "0",
    });
    // acme and forsale were reserved by the operator: exempt, no receipt (docs/api.md "Claim fee").
    for (const label of ["acme", "forsale", "never-claimed"]) {
      const { status, body } = await get(`/v1/claim-fee/${label}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ label, receipt: null });
    }
    expect(await get("/v1/claim-fee/Not_A-Label")).toMatchObject({
      status: 400,
      body: { error: "invalid_name" },
    });
  });

  it("splits every terminal outcome by its refund share, rounding the refund down", async () => {
    await setFee(ODD_FEE);
    const outcomes = [
      ["withdrawn-co", "Withdrawn", AllocatorFns.withdraw],
      ["rejected-co", "Rejected", AllocatorFns.reject],
      ["stuck-co", "Stuck", AllocatorFns.mark_stuck],
    ] as const;
    for (const [label, outcome, fn] of outcomes) {
      const claimant = await funded();
      const id = await announce(claimant, label);
      await wallet.invoke(fn === AllocatorFns.withdraw ? claimant : admin, devnet.contracts.allocator, fn, {
        id,
      });
      const refund = applyBps(ODD_FEE, REFUND_BPS[outcome]);
      const { body } = await get(`/v1/claim-fee/${label}`);
      expect(body.receipt).toEqual({
        claimant: claimant.publicKey(),
        amount: ODD_FEE.toString(),
        outcome,
        refundAmount: refund.toString(),
        treasuryAmount: (ODD_FEE - refund).toString(),
      });
      const credit = await get(`/v1/claim-fee/credit/${claimant.publicKey()}`);
      expect(credit.body).toMatchObject({ payee: claimant.publicKey(), amount: refund.toString() });
    }
    // 80% of 1,000,000,001 is 800,000,000.8: the claimant gets 800,000,000, the treasury the rest.
    expect((await get("/v1/claim-fee/withdrawn-co")).body.receipt).toMatchObject({
      refundAmount: "800000000",
      treasuryAmount: "200000001",
    });
    await setFee(DEMO_FEE);
  });

  it("shows a dismissed objection's bond as the claimant's bond credit, apart from the claim-fee credit", async () => {
    const claimant = await funded();
    const objector = await funded();
    const id = await announce(claimant, "bonded-co");
    const bond = xlmToStroops("25");
    await wallet.invoke(objector, devnet.contracts.allocator, AllocatorFns.object, {
      objector: objector.publicKey(),
      id,
      basis: ["trademark"],
      bond,
    });
    const credits = async (account: Keypair) => {
      const { status, body, headers } = await get(`/v1/claim-fee/credit/${account.publicKey()}`);
      expect(status).toBe(200);
      expect(headers["cache-control"]).toBe("no-store");
      return { payee: body.payee, amount: body.amount, bondAmount: body.bondAmount };
    };
    // A live objection's bond is held, nobody's credit yet.
    expect(await credits(claimant)).toEqual({ payee: claimant.publicKey(), amount: "0", bondAmount: "0" });
    await wallet.invoke(admin, devnet.contracts.allocator, AllocatorFns.dismiss_objection, {
      id,
      objector: objector.publicKey(),
    });
    // Dismissed on the merits: the bond is the claimant's, and the claim fee (still held) is not mixed in.
    expect(await credits(claimant)).toEqual({
      payee: claimant.publicKey(),
      amount: "0",
      bondAmount: bond.toString(),
    });
    expect(await credits(objector)).toEqual({ payee: objector.publicKey(), amount: "0", bondAmount: "0" });
  });

  it("prepares credit recovery that pays the payee while another account signs, then no_credit", async () => {
    const claimant = await funded();
    const id = await announce(claimant, "refund-me");
    await wallet.invoke(claimant, devnet.contracts.allocator, AllocatorFns.withdraw, { id });
    const credit = applyBps(DEMO_FEE, REFUND_BPS.Withdrawn);
    const helper = await funded();

    const prepared = await post(`/v1/claim-fee/credit/${claimant.publicKey()}/prepare`, {
      source: helper.publicKey(),
    });
    expect(prepared.status).toBe(200);
    expect(prepared.body).toMatchObject({
      ok: true,
      payee: claimant.publicKey(),
      source: helper.publicKey(),
      amount: credit.toString(),
      network: devnet.networkPassphrase,
    });
    const payeeBefore = await nativeBalance(claimant.publicKey());
    const tx = TransactionBuilder.fromXDR(prepared.body.xdr, devnet.networkPassphrase) as Transaction;
    expect(tx.source).toBe(helper.publicKey());
    tx.sign(helper);
    await wallet.submit(tx.toXDR());
    // The payee received the whole credit without paying anything, though it signed nothing.
    expect(await nativeBalance(claimant.publicKey())).toBe(payeeBefore + credit);
    expect((await get(`/v1/claim-fee/credit/${claimant.publicKey()}`)).body.amount).toBe("0");

    const again = await post(`/v1/claim-fee/credit/${claimant.publicKey()}/prepare`, {
      source: helper.publicKey(),
    });
    expect(again).toMatchObject({ status: 409, body: { error: "no_credit" } });
    // The source is judged before the credit: an account that does not exist is 400, not no_credit.
    expect(
      await post(`/v1/claim-fee/credit/${claimant.publicKey()}/prepare`, {
        source: Keypair.random().publicKey(),
      }),
    ).toEqual({
      status: 400,
      body: { error: "invalid_account", detail: "the source account does not exist on this network" },
    });
    expect(
      await post("/v1/claim-fee/credit/GNOTANADDRESS/prepare", { source: helper.publicKey() }),
    ).toMatchObject({
      status: 400,
      body: { error: "bad_address" },
    });
    expect(
      await post(`/v1/claim-fee/credit/${claimant.publicKey()}/prepare`, { source: "nobody" }),
    ).toMatchObject({ status: 400, body: { error: "invalid_account" } });
    expect(await get("/v1/claim-fee/credit/not-an-address")).toMatchObject({
      status: 400,
      body: { error: "bad_address" },
    });
  });

  it("announces through the console: quote → prepare → verify → sign → submit, with the fee paid", async () => {
    const claimant = await funded();
    const token = await signIn(app, claimant);
    const quote = (await get("/v1/claim-fee")).body;
    const expectedFee = {
      allocatorId: quote.allocatorId,
      token: quote.token,
      amount: quote.amount,
      recipient: quote.recipient,
      network: quote.network,
    };
    const body = {
      label: "brandnew",
      basis: ["trademark"],
      evidence: [{ label: "registration", url: "https://example.org/tm/42" }],
    };
    const url = "/console/register/announce/prepare";

    expect(await post(url, { ...body, expectedFee })).toMatchObject({ status: 401 });
    expect(await post(url, body, bearer(token))).toMatchObject({
      status: 400,
      body: { error: "claim_fee_quote_required" },
    });
    const stale = await post(url, { ...body, expectedFee: { ...expectedFee, amount: "1" } }, bearer(token));
    expect(stale).toMatchObject({
      status: 409,
      body: { error: "claim_fee_changed", quote: { amount: quote.amount } },
    });
    expect(await post(url, { ...body, label: "acme", expectedFee }, bearer(token))).toMatchObject({
      status: 409,
      body: { error: "name_taken" },
    });
    expect(await post(url, { ...body, label: "-bad", expectedFee }, bearer(token))).toMatchObject({
      status: 400,
      body: { error: "invalid_name" },
    });

    const prepared = await post(url, { ...body, expectedFee }, bearer(token));
    expect(prepared.status).toBe(200);
    expect(prepared.body).toMatchObject({
      ok: true,
      claimant: claimant.publicKey(),
      fee: { allocatorId: devnet.contracts.allocator, amount: quote.amount, recipient: quote.recipient },
      network: devnet.networkPassphrase,
    });
    const verified = await verifyAnnounce(prepared.body.xdr, {
      rpcUrl: devnet.rpcUrl,
      allocatorId: devnet.contracts.allocator,
      label: body.label,
      basis: body.basis,
      evidence: body.evidence,
      maxFeeStroops: 10_000_000n,
    });
    expect(verified).toMatchObject({ ok: true, claimant: claimant.publicKey() });

    const before = await nativeBalance(claimant.publicKey());
    const tx = TransactionBuilder.fromXDR(prepared.body.xdr, devnet.networkPassphrase);
    tx.sign(claimant);
    await wallet.submit(tx.toXDR());
    const after = await nativeBalance(claimant.publicKey());
    // The fee plus a network fee of at most the envelope's bid.
    expect(before - after - DEMO_FEE).toBeGreaterThanOrEqual(0n);
    expect(before - after - DEMO_FEE).toBeLessThanOrEqual(BigInt(tx.fee));
    expect((await get("/v1/claim-fee/brandnew")).body.receipt).toMatchObject({
      claimant: claimant.publicKey(),
      outcome: "Held",
      amount: quote.amount,
    });
  });

  it("answers insufficient_balance, not invalid_chain_address, when the claimant cannot pay the fee", async () => {
    const sponsor = await funded();
    const poor = Keypair.random();
    await wallet.classic(
      sponsor,
      Operation.createAccount({ destination: poor.publicKey(), startingBalance: "5" }),
    );
    const token = await signIn(app, poor);
    const quote = (await get("/v1/claim-fee")).body;
    const { status, body } = await post(
      "/console/register/announce/prepare",
      {
        label: "cannotpay",
        basis: ["trademark"],
        expectedFee: {
          allocatorId: quote.allocatorId,
          token: quote.token,
          amount: quote.amount,
          recipient: quote.recipient,
          network: quote.network,
        },
      },
      bearer(token),
    );
    expect(status).toBe(409);
    expect(body.error).toBe("insufficient_balance");
  });
});

describe("a failed announce submission", () => {
  const t = allocatorApp({ scenario: "demo", closeIntervalMs: 100 });

  it("reports the native token's balance error as insufficient_balance, not invalid_chain_address", async () => {
    const { devnet, app } = t;
    const wallet = new Wallet({ rpcUrl: devnet.rpcUrl, networkPassphrase: devnet.networkPassphrase });
    const claimant = Keypair.random();
    expect((await fetch(`${devnet.rpcUrl}/friendbot?addr=${claimant.publicKey()}`)).status).toBe(200);
    const server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
    const policy = await wallet.read(
      claimant.publicKey(),
      devnet.contracts.allocator,
      AllocatorFns.fee_policy,
      {},
    );
    if (policy === null) throw new Error("no policy");
    const sequence = BigInt((await server.getAccount(claimant.publicKey())).sequenceNumber());
    const build = (at: bigint) =>
      new TransactionBuilder(new Account(claimant.publicKey(), at.toString()), {
        fee: "100",
        networkPassphrase: devnet.networkPassphrase,
      });
    // The announce takes the sequence after next and is simulated while the fee is still covered...
    const announce = await server.prepareTransaction(
      build(sequence + 1n)
        .addOperation(
          Operation.invokeContractFunction({
            contract: devnet.contracts.allocator,
            function: "announce",
            args: AllocatorFns.announce.encodeArgs({
              claimant: claimant.publicKey(),
              label: "drained",
              basis: ["trademark"],
              evidence: [],
              fee: policy,
            }),
          }),
        )
        .setTimeout(300)
        .build(),
    );
    announce.sign(claimant);
    // ...then the claimant spends nearly everything first, so the fee transfer fails when the announce applies.
    const spend = build(sequence)
      .addOperation(
        Operation.payment({ destination: treasury.publicKey(), asset: Asset.native(), amount: "9990" }),
      )
      .setTimeout(300)
      .build();
    spend.sign(claimant);
    const submit = (tx: { toXDR(): string }) =>
      app.inject({ method: "POST", url: "/records/submit", payload: { signedXdr: tx.toXDR() } });
    // The spend goes straight to the network: the relay accepts only the calls this service prepares.
    expect((await submit(spend)).json()).toMatchObject({ error: "transaction_not_allowed" });
    await wallet.submit(spend.toXDR());
    const failed = await submit(announce);
    expect(failed.statusCode).toBe(409);
    expect(failed.json()).toMatchObject({
      error: "transaction_failed",
      resultCode: "txFailed",
      contractError: 10,
      code: "insufficient_balance",
    });
  });
});

describe("claim fee without a policy", () => {
  const t = allocatorApp({ scenario: "none", closeIntervalMs: 0 });

  it("refuses to quote rather than make one up", async () => {
    const response = await t.app.inject({ url: "/v1/claim-fee" });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: "claim_fee_unavailable", reason: "unconfigured" });
  });
});

/**
 * A devnet, a mirror on PostgreSQL and the app over them with the allocator configured (the claim-fee routes read it
 * live), started before the describe block's tests and stopped after them.
 */
function allocatorApp(devnetOptions: { scenario: "demo" | "none"; closeIntervalMs: number }) {
  const t = {} as { devnet: NamingDevnet; database: TestDatabase; app: App };
  beforeAll(async () => {
    t.devnet = await startNamingDevnet(devnetOptions);
    t.database = await createTestDatabase("postgres");
    const config = testConfig({
      RPC_URL: t.devnet.rpcUrl,
      NETWORK_PASSPHRASE: t.devnet.networkPassphrase,
      ALLOCATOR_ID: t.devnet.contracts.allocator,
    });
    t.app = await buildApp({
      config,
      db: t.database,
      redis: null,
      chainClient: new ChainClient(t.devnet.rpcUrl, t.devnet.networkPassphrase),
    });
  });
  afterAll(async () => {
    await t.app?.close();
    await t.devnet?.stop();
    await t.database?.close();
  });
  return t;
}
