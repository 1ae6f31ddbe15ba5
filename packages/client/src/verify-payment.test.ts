// verifyPreparedPayment: exactly the reviewed payment passes; every way a prepared envelope could pay something else,
// someone else, or later, is refused with its own reason before a signer sees it.
import { randomBytes } from "node:crypto";
import {
  Account,
  Asset,
  Keypair,
  Memo,
  Operation,
  StrKey,
  type Transaction,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { type PaymentExpectation, verifyPreparedPayment } from "./verify-payment.ts";
import { PreparedTransactionRejected } from "./verify-prepared.ts";

const PASSPHRASE = "Test SDF Network ; September 2015";
const PAYER = Keypair.random().publicKey();
const ESCROW = Keypair.random().publicKey();
const MEMO = randomBytes(32).toString("hex");

const expected: PaymentExpectation = {
  networkPassphrase: PASSPHRASE,
  source: PAYER,
  destination: ESCROW,
  amountXlm: "500",
  memoHash: MEMO,
};

interface Shape {
  source?: string;
  ops?: xdr.Operation[];
  memo?: Memo;
  fee?: string;
  timeout?: number;
  passphrase?: string;
}

function payment(over: { destination?: string; asset?: Asset; amount?: string; source?: string } = {}) {
  return Operation.payment({
    destination: over.destination ?? ESCROW,
    asset: over.asset ?? Asset.native(),
    amount: over.amount ?? "500",
    ...(over.source === undefined ? {} : { source: over.source }),
  });
}

function envelope(shape: Shape = {}): string {
  const builder = new TransactionBuilder(new Account(shape.source ?? PAYER, "41"), {
    fee: shape.fee ?? "100",
    networkPassphrase: shape.passphrase ?? PASSPHRASE,
  });
  for (const op of shape.ops ?? [payment()]) builder.addOperation(op);
  return builder
    .addMemo(shape.memo ?? Memo.hash(MEMO))
    .setTimeout(shape.timeout ?? 900)
    .build()
    .toXDR();
}

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof PreparedTransactionRejected) return error.reason;
    throw error;
  }
  return "accepted";
}

describe("verifyPreparedPayment", () => {
  it("accepts exactly the reviewed payment and returns it with its fee", () => {
    const verified = verifyPreparedPayment({ xdr: envelope(), network: PASSPHRASE }, expected);
    expect(verified.feeStroops).toBe(100n);
    expect((verified.transaction as Transaction).source).toBe(PAYER);
    // The same amount written with its seven decimals, and the memo in upper case, are the same payment.
    expect(reasonOf(() => verifyPreparedPayment(envelope(), { ...expected, amountXlm: "500.0000000" }))).toBe(
      "accepted",
    );
    expect(
      reasonOf(() => verifyPreparedPayment(envelope(), { ...expected, memoHash: MEMO.toUpperCase() })),
    ).toBe("accepted");
  });

  it("refuses every other payment with its own reason", () => {
    const other = Keypair.random().publicKey();
    const token = new Asset("USDC", Keypair.random().publicKey());
    const cases: [string, () => unknown][] = [
      ["network_mismatch", () => verifyPreparedPayment({ xdr: envelope(), network: "Other" }, expected)],
      ["malformed_transaction", () => verifyPreparedPayment("not an envelope", expected)],
      ["source_mismatch", () => verifyPreparedPayment(envelope({ source: other }), expected)],
      [
        "source_mismatch",
        () => verifyPreparedPayment(envelope({ ops: [payment({ source: other })] }), expected),
      ],
      [
        "unexpected_operations",
        () => verifyPreparedPayment(envelope({ ops: [payment(), payment()] }), expected),
      ],
      [
        "unexpected_operations",
        () => verifyPreparedPayment(envelope({ ops: [Operation.bumpSequence({ bumpTo: "99" })] }), expected),
      ],
      [
        "unexpected_operations",
        () =>
          verifyPreparedPayment(
            envelope({
              ops: [
                Operation.invokeContractFunction({
                  contract: StrKey.encodeContract(randomBytes(32)),
                  function: "transfer",
                  args: [],
                }),
              ],
            }),
            expected,
          ),
      ],
      [
        "destination_mismatch",
        () => verifyPreparedPayment(envelope({ ops: [payment({ destination: other })] }), expected),
      ],
      [
        "asset_mismatch",
        () => verifyPreparedPayment(envelope({ ops: [payment({ asset: token })] }), expected),
      ],
      [
        "amount_mismatch",
        () => verifyPreparedPayment(envelope({ ops: [payment({ amount: "500.0000001" })] }), expected),
      ],
      [
        "amount_mismatch",
        () => verifyPreparedPayment(envelope(), { ...expected, amountXlm: "five hundred" }),
      ],
      ["memo_mismatch", () => verifyPreparedPayment(envelope({ memo: Memo.text("deposit") }), expected)],
      [
        "memo_mismatch",
        () => verifyPreparedPayment(envelope({ memo: Memo.hash("ab".repeat(32)) }), expected),
      ],
      ["memo_mismatch", () => verifyPreparedPayment(envelope({ memo: Memo.none() }), expected)],
      ["fee_too_high", () => verifyPreparedPayment(envelope({ fee: "100001" }), expected)],
      [
        "fee_too_high",
        () => verifyPreparedPayment(envelope({ fee: "200" }), { ...expected, maxFeeStroops: 100 }),
      ],
      ["validity_too_long", () => verifyPreparedPayment(envelope({ timeout: 0 }), expected)],
      ["validity_too_long", () => verifyPreparedPayment(envelope({ timeout: 7200 }), expected)],
    ];
    expect(cases.map(([reason, run]) => [reason, reasonOf(run)])).toEqual(
      cases.map(([reason]) => [reason, reason]),
    );
  });

  it("refuses a fee bump: the service never prepares one", () => {
    const inner = TransactionBuilder.fromXDR(envelope(), PASSPHRASE) as Transaction;
    const bump = TransactionBuilder.buildFeeBumpTransaction(Keypair.random(), "200", inner, PASSPHRASE);
    expect(reasonOf(() => verifyPreparedPayment(bump.toXDR(), expected))).toBe("malformed_transaction");
  });
});
