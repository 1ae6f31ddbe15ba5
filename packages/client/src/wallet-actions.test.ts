// The record, marketplace, billing and claim helpers against a fake API: each signs exactly the call or payment
// its arguments ask for and submits it to its relay with its session, and a prepared envelope that does anything
// else never reaches the signer.
import { randomBytes } from "node:crypto";
import {
  AllocatorFns,
  nameNode,
  namespaceNode,
  PrimaryFns,
  RegistryFns,
  ResolverFns,
} from "@namereg/protocol";
import {
  Account,
  Asset,
  Keypair,
  Memo,
  Operation,
  StrKey,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { createApi, isNameregError } from "./api.ts";
import { payBilling } from "./billing.ts";
import { withdrawClaim } from "./claims.ts";
import { setPrimaryName, setTextRecord } from "./holder-changes.ts";
import { payDeposit, proposeTransfer } from "./market.ts";
import type { SignWith } from "./transactions.ts";

const PASSPHRASE = "Test SDF Network ; September 2015";
const WALLET = Keypair.random().publicKey();
const CONTRACT = StrKey.encodeContract(randomBytes(32));
const ESCROW = Keypair.random().publicKey();
const MEMO = randomBytes(32).toString("hex");
const SUBMITTED = { status: 200, body: { ok: true, txHash: "ab".repeat(32), ledger: 9 } };

function call(fn: string, args: xdr.ScVal[]): string {
  return new TransactionBuilder(new Account(WALLET, "7"), { fee: "100000", networkPassphrase: PASSPHRASE })
    .addOperation(Operation.invokeContractFunction({ contract: CONTRACT, function: fn, args }))
    .setTimeout(900)
    .build()
    .toXDR();
}

function pay(destination: string, amount: string, memo: string): string {
  return new TransactionBuilder(new Account(WALLET, "7"), { fee: "100", networkPassphrase: PASSPHRASE })
    .addOperation(Operation.payment({ destination, asset: Asset.native(), amount }))
    .addMemo(Memo.hash(memo))
    .setTimeout(900)
    .build()
    .toXDR();
}

function fakeApi(answers: Record<string, { status: number; body: unknown }>) {
  const calls: { path: string; body: unknown; headers: Record<string, string> }[] = [];
  const fetch = async (input: Request | string | URL) => {
    const request = input as Request;
    const path = new URL(request.url).pathname;
    const text = await request.text();
    calls.push({
      path,
      body: text === "" ? undefined : JSON.parse(text),
      headers: Object.fromEntries(request.headers),
    });
    const answer = answers[path] ?? { status: 404, body: { error: "not_found" } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "content-type": "application/json" },
    });
  };
  return { api: createApi({ baseUrl: "https://names.example.com", fetch }), calls };
}

function wallet(): SignWith & { signed: string[] } {
  const signed: string[] = [];
  return {
    signed,
    networkPassphrase: PASSPHRASE,
    account: WALLET,
    signer: async (envelope) => {
      signed.push(envelope);
      return `SIGNED(${envelope})`;
    },
  };
}

const answer = (xdr: string, extra: object = {}) => ({
  status: 200,
  body: { ok: true, xdr, network: PASSPHRASE, contractId: CONTRACT, ...extra },
});

async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (isNameregError(error, "prepared_transaction_rejected")) return error.reason;
    throw error;
  }
  return "accepted";
}

describe("record helpers", () => {
  const node = nameNode("alice", "acme");
  const setBio = call("set_text", ResolverFns.set_text.encodeArgs({ node, key: "bio", value: "hi" }));

  it("sets a text record: the body names one action, the signed call is the one asked for", async () => {
    const { api, calls } = fakeApi({ "/records/prepare": answer(setBio), "/records/submit": SUBMITTED });
    const w = wallet();
    await setTextRecord(api, { name: "alice.acme", key: "bio", value: "hi" }, w);
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ["/records/prepare", { name: "alice.acme", text: { key: "bio", value: "hi" } }],
      ["/records/submit", { signedXdr: `SIGNED(${setBio})` }],
    ]);
    expect(w.signed).toEqual([setBio]);
  });

  it("refuses a prepared call that writes another value or names another address", async () => {
    const { api, calls } = fakeApi({ "/records/prepare": answer(setBio), "/records/submit": SUBMITTED });
    const w = wallet();
    expect(await refusal(() => setTextRecord(api, { name: "alice.acme", key: "bio", value: "bye" }, w))).toBe(
      "arguments_mismatch",
    );
    // A primary name is set for the signing account itself: an envelope for anyone else is not signed.
    const forOther = call(
      "set_primary",
      PrimaryFns.set_primary.encodeArgs({ address: Keypair.random().publicKey(), name: "alice.acme" }),
    );
    const other = fakeApi({ "/records/prepare": answer(forOther), "/records/submit": SUBMITTED });
    expect(await refusal(() => setPrimaryName(other.api, { name: "alice.acme" }, w))).toBe(
      "arguments_mismatch",
    );
    expect(w.signed).toEqual([]);
    expect([...calls, ...other.calls].map((c) => c.path)).toEqual(["/records/prepare", "/records/prepare"]);
  });
});

describe("payment helpers", () => {
  const reviewed = { to: ESCROW, amountXlm: "500", memoHash: MEMO };
  const paymentAnswer = (xdr: string) => ({ status: 200, body: { ok: true, xdr, network: PASSPHRASE } });

  it("pays the reviewed deposit from the wallet's account through /records/submit", async () => {
    const deposit = pay(ESCROW, "500", MEMO);
    const { api, calls } = fakeApi({
      "/v1/market/listings/L1/pay/prepare": paymentAnswer(deposit),
      "/records/submit": SUBMITTED,
    });
    const w = wallet();
    await payDeposit(api, { listingId: "L1" }, reviewed, w);
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ["/v1/market/listings/L1/pay/prepare", { account: WALLET }],
      ["/records/submit", { signedXdr: `SIGNED(${deposit})` }],
    ]);
  });

  it("signs no payment to another destination, of another amount or with another memo", async () => {
    const w = wallet();
    for (const [envelope, reason] of [
      [pay(Keypair.random().publicKey(), "500", MEMO), "destination_mismatch"],
      [pay(ESCROW, "5000", MEMO), "amount_mismatch"],
      [pay(ESCROW, "500", "cd".repeat(32)), "memo_mismatch"],
    ] as const) {
      const { api, calls } = fakeApi({ "/v1/market/listings/L1/pay/prepare": paymentAnswer(envelope) });
      expect(await refusal(() => payDeposit(api, { listingId: "L1" }, reviewed, w))).toBe(reason);
      expect(calls.map((c) => c.path)).toEqual(["/v1/market/listings/L1/pay/prepare"]);
    }
    expect(w.signed).toEqual([]);
  });

  it("pays whole billing periods with the namespace's node, in the console session", async () => {
    const billing = Keypair.random().publicKey();
    const envelope = pay(billing, "30", namespaceNode("acme"));
    const { api, calls } = fakeApi({
      "/console/billing/pay/prepare": paymentAnswer(envelope),
      "/console/tx/submit": SUBMITTED,
    });
    const session = { token: "T0K3N", namespace: "acme" };
    await payBilling(api, { periods: 3 }, { account: billing, pricePerPeriodXlm: "10" }, session, wallet());
    expect(
      calls.map((c) => [c.path, c.body, c.headers.authorization, c.headers["x-service-namespace"]]),
    ).toEqual([
      ["/console/billing/pay/prepare", { namespace: "acme", periods: 3 }, "Bearer T0K3N", "acme"],
      ["/console/tx/submit", { xdr: `SIGNED(${envelope})` }, "Bearer T0K3N", "acme"],
    ]);
  });
});

describe("registry and claim helpers", () => {
  const session = { token: "T0K3N", namespace: "acme" };
  const buyer = Keypair.random().publicKey();

  it("proposes the session's namespace to the buyer, refusing an expiry far beyond what was asked", async () => {
    const soon = BigInt(Math.floor(Date.now() / 1000) + 3600);
    const propose = (expires: bigint) =>
      call(
        "propose_transfer",
        RegistryFns.propose_transfer.encodeArgs({ node: namespaceNode("acme"), to: buyer, expires }),
      );
    const ok = fakeApi({
      "/console/market/listings/L1/propose/prepare": {
        status: 200,
        body: {
          ok: true,
          xdr: propose(soon),
          network: PASSPHRASE,
          registryId: CONTRACT,
          expires: String(soon),
        },
      },
      "/console/tx/submit": SUBMITTED,
    });
    await proposeTransfer(ok.api, { listingId: "L1", buyer, expiresInSeconds: 3600 }, session, wallet());
    expect(ok.calls.map((c) => [c.path, c.body])).toEqual([
      ["/console/market/listings/L1/propose/prepare", { buyer, expiresInSeconds: 3600 }],
      ["/console/tx/submit", { xdr: `SIGNED(${propose(soon)})` }],
    ]);

    const years = soon + 10n ** 8n;
    const late = fakeApi({
      "/console/market/listings/L1/propose/prepare": {
        status: 200,
        body: {
          ok: true,
          xdr: propose(years),
          network: PASSPHRASE,
          registryId: CONTRACT,
          expires: String(years),
        },
      },
    });
    const w = wallet();
    expect(await refusal(() => proposeTransfer(late.api, { listingId: "L1", buyer }, session, w))).toBe(
      "arguments_mismatch",
    );
    expect(w.signed).toEqual([]);
  });

  it("withdraws a claim with the session's token, signing withdraw(id) on the allocator", async () => {
    const envelope = call("withdraw", AllocatorFns.withdraw.encodeArgs({ id: 7n }));
    const { api, calls } = fakeApi({
      "/console/register/withdraw/prepare": {
        status: 200,
        body: { ok: true, xdr: envelope, network: PASSPHRASE, allocatorId: CONTRACT },
      },
      "/records/submit": SUBMITTED,
    });
    await withdrawClaim(api, { id: "7" }, { token: "T0K3N" }, wallet());
    expect(calls.map((c) => [c.path, c.body, c.headers.authorization])).toEqual([
      ["/console/register/withdraw/prepare", { id: "7" }, "Bearer T0K3N"],
      ["/records/submit", { signedXdr: `SIGNED(${envelope})` }, undefined],
    ]);
    expect(await refusal(() => withdrawClaim(api, { id: "8" }, { token: "T0K3N" }, wallet()))).toBe(
      "arguments_mismatch",
    );
  });
});
