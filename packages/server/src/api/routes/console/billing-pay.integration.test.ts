// POST /console/billing/pay/prepare (docs/api.md "Wallet sessions and the owner console", **Chosen**): the owner's
// billing payment prepared for its wallet, signed, relayed by /console/tx/submit and applied by the billing
// watcher; and the payments neither relay sends to the billing account.
import { namespaceNode } from "@namereg/protocol";
import {
  Asset,
  type Keypair,
  Memo,
  Operation,
  rpc,
  type Transaction,
  TransactionBuilder,
} from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BillingHarness, demoPayers, startBillingHarness } from "../../../../test/fixtures/billing.ts";
import { bearer, signIn } from "../../../../test/fixtures/wallet-auth.ts";
import { PERIOD_MS } from "../../../billing/terms.ts";
import { type App, buildApp } from "../../app.ts";

describe("billing payments prepared for the owner's wallet", () => {
  let h: BillingHarness;
  let app: App;
  let headers: Record<string, string>;
  const acme = demoPayers().acme;

  beforeAll(async () => {
    h = await startBillingHarness("pglite");
    app = await h.app();
    headers = { ...bearer(await signIn(app, acme)), "x-service-namespace": "acme" };
    h.devnet.setCloseInterval(100);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const call = async (url: string, payload: object, with_: Record<string, string> = headers) => {
    const response = await app.inject({ method: "POST", url, payload, headers: with_ });
    return { status: response.statusCode, body: response.json() };
  };
  const sign = (xdr: string, key: Keypair) => {
    const tx = TransactionBuilder.fromXDR(xdr, h.devnet.networkPassphrase) as Transaction;
    tx.sign(key);
    return tx;
  };

  it("pays two periods with the namespace's node as memo, and the watcher applies them", async () => {
    const prepared = await call("/console/billing/pay/prepare", { namespace: "acme", periods: 2 });
    expect(prepared).toEqual({
      status: 200,
      body: {
        ok: true,
        xdr: expect.any(String),
        signer: acme.publicKey(),
        to: h.billing.publicKey(),
        asset: "native",
        amountXlm: "20.0000000",
        memoType: "hash",
        memoHash: namespaceNode("acme"),
        fee: "100",
        validUntil: expect.any(String),
        network: h.devnet.networkPassphrase,
        periods: 2,
      },
    });
    const tx = sign(prepared.body.xdr, acme);
    const [op] = tx.operations;
    expect(op?.type === "payment" && [op.destination, op.amount, op.asset.isNative()]).toEqual([
      h.billing.publicKey(),
      "20.0000000",
      true,
    ]);
    const submitted = await call("/console/tx/submit", { xdr: tx.toXDR() });
    expect(submitted).toEqual({
      status: 200,
      body: { ok: true, txHash: Buffer.from(tx.hash()).toString("hex"), ledger: expect.any(Number) },
    });
    await h.sync();
    const payment = await h.payment(`${submitted.body.txHash}:0`);
    expect([payment?.state, payment?.periods, payment?.namespace]).toEqual(["applied", 2, "acme"]);
    const paidUntil = (await h.subscription("acme"))?.activeUntil?.getTime() ?? 0;
    expect(paidUntil - h.now().getTime()).toBeGreaterThan(2 * PERIOD_MS - 60_000);
  });

  it("refuses what it cannot build and what it will not relay", async () => {
    expect(await call("/console/billing/pay/prepare", { namespace: "acme", periods: 0 })).toMatchObject({
      status: 400,
      body: { error: "invalid_request" },
    });
    expect(await call("/console/billing/pay/prepare", { namespace: "plain", periods: 1 })).toMatchObject({
      status: 409,
      body: { error: "namespace_changed" },
    });
    // Half a period is quarantined by the watcher: the relays do not send it.
    const server = new rpc.Server(h.devnet.rpcUrl, { allowHttp: true });
    const account = await server.getAccount(acme.publicKey());
    const half = new TransactionBuilder(account, {
      fee: "100",
      networkPassphrase: h.devnet.networkPassphrase,
    })
      .addOperation(
        Operation.payment({ destination: h.billing.publicKey(), asset: Asset.native(), amount: "5" }),
      )
      .addMemo(Memo.hash(namespaceNode("acme")))
      .setTimeout(300)
      .build();
    half.sign(acme);
    expect(await call("/console/tx/submit", { xdr: half.toXDR() })).toEqual({
      status: 400,
      body: {
        error: "invalid_request",
        detail: "xdr: pays 5.0000000 XLM; billing takes whole periods of 10.0000000 XLM",
      },
    });
    expect(await call("/records/submit", { signedXdr: half.toXDR() }, {})).toEqual({
      status: 400,
      body: {
        error: "transaction_not_allowed",
        detail: "signedXdr: pays 5.0000000 XLM; billing takes whole periods of 10.0000000 XLM",
      },
    });

    const off = await buildApp({
      config: { ...h.config, billing: { ...h.config.billing, enabled: false } },
      db: h.database,
      redis: null,
    });
    try {
      const response = await off.inject({
        method: "POST",
        url: "/console/billing/pay/prepare",
        payload: { namespace: "acme", periods: 1 },
        headers,
      });
      expect([response.statusCode, response.json().error]).toEqual([409, "billing_disabled"]);
    } finally {
      await off.close();
    }
  });
});
