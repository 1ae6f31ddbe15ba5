// The review of a prepared payment (flow.ts): held by verifyPreparedPayment to the destination, amount and memo the
// action expects, then said in words from the envelope itself.
import { namespaceNode } from "@namereg/protocol";
import { Account, Asset, Keypair, Memo, Networks, Operation, TransactionBuilder } from "@stellar/stellar-sdk";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Session } from "../wallet/session.ts";
import type { ConnectedWallet } from "../wallet/wallet.ts";
import type { Action, PreparedPayment } from "./action.ts";

// api.ts reads the page's origin when loaded.
vi.stubGlobal("location", { origin: "http://127.0.0.1" });
let flow: typeof import("./flow.ts");
beforeAll(async () => {
  flow = await import("./flow.ts");
});

const owner = Keypair.random().publicKey();
const billing = Keypair.random().publicKey();
const memoHash = namespaceNode("acme");

function envelope(amount: string, to = billing): string {
  return new TransactionBuilder(new Account(owner, "1"), { fee: "100", networkPassphrase: Networks.TESTNET })
    .addOperation(Operation.payment({ destination: to, asset: Asset.native(), amount }))
    .addMemo(Memo.hash(memoHash))
    .setTimeout(600)
    .build()
    .toXDR();
}

const wallet = { account: owner, networkPassphrase: Networks.TESTNET, name: "Test" } as ConnectedWallet;
const session = { account: owner } as Session;

function paying(xdr: string): Action {
  const prepared: PreparedPayment = {
    kind: "payment",
    xdr,
    network: Networks.TESTNET,
    destinationWords: "the service's billing account",
    expected: { destination: billing, amountXlm: "20", memoHash },
    memoWords: "the node of namespace acme",
    submit: { route: "console", namespace: "acme" },
  };
  return { title: "Pay 2 billing periods of acme", prepare: async () => prepared };
}

describe("the review of a payment", () => {
  it("says whom it pays, how much XLM, the memo, the fee and until when it is valid", async () => {
    const review = await flow.review(paying(envelope("20")), wallet, session);
    expect(review.lines).toEqual(["Pay 20 XLM to the service's billing account."]);
    expect(review.payment).toEqual({
      destination: billing,
      destinationWords: "the service's billing account",
      amount: "20 XLM",
      memo: memoHash,
      memoWords: "the node of namespace acme",
    });
    expect(review.fn).toBe("payment");
    expect(review.fee).toBe("0.00001 XLM");
    expect(review.source).toBe(owner);
    expect(Date.parse(review.validUntil) - Date.now()).toBeGreaterThan(500_000);
    expect(review.network).toBe("the Stellar testnet");
  });

  it("refuses an envelope that pays another amount or another account", async () => {
    await expect(flow.review(paying(envelope("21")), wallet, session)).rejects.toThrow(/21/);
    const other = Keypair.random().publicKey();
    await expect(flow.review(paying(envelope("20", other)), wallet, session)).rejects.toThrow(other);
  });
});
