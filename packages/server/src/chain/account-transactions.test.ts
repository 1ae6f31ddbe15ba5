// The transactions an account signed itself, read from one getTransactions entry: the escrow's payouts with their
// memo, sequence and what each operation sent; transactions it has no part in are not its own.
import {
  Account,
  Asset,
  Keypair,
  Memo,
  Networks,
  Operation,
  type rpc,
  TransactionBuilder,
} from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { ownTransaction } from "./account-transactions.ts";

const passphrase = Networks.TESTNET;
const escrow = Keypair.random();
const other = Keypair.random();
const to = Keypair.random().publicKey();
const memo = "cd".repeat(32);

function info(source: Keypair, ops: ReturnType<typeof Operation.payment>[], status = "SUCCESS") {
  const builder = new TransactionBuilder(new Account(source.publicKey(), "41"), {
    fee: "100",
    networkPassphrase: passphrase,
  }).setTimeout(0);
  for (const op of ops) builder.addOperation(op);
  const tx = builder.addMemo(Memo.hash(memo)).build();
  return {
    status,
    ledger: 100,
    createdAt: 1_790_000_000,
    applicationOrder: 2,
    feeBump: false,
    txHash: "e".repeat(64),
    envelopeXdr: tx.toEnvelope(),
  } as unknown as rpc.Api.TransactionInfo;
}

describe("ownTransaction", () => {
  it("reads a payout of the account: memo, sequence, and what each operation sent", () => {
    const got = ownTransaction(
      info(escrow, [
        Operation.payment({ destination: to, asset: Asset.native(), amount: "5" }),
        Operation.createAccount({ destination: other.publicKey(), startingBalance: "1.5" }),
      ]),
      escrow.publicKey(),
      passphrase,
    );
    expect(got).toMatchObject({
      txHash: "e".repeat(64),
      ledger: 100,
      successful: true,
      sequence: "42",
      memoType: "hash",
      memo,
      paidFee: true,
      moves: [
        { op: 0, type: "payment", destination: to, asset: "native", amount: "50000000" },
        { op: 1, type: "createAccount", destination: other.publicKey(), asset: "native", amount: "15000000" },
      ],
    });
  });

  it("counts a failed transaction (it used a sequence number and a fee) and one where only an operation is the account's", () => {
    const failed = ownTransaction(
      info(escrow, [Operation.payment({ destination: to, asset: Asset.native(), amount: "5" })], "FAILED"),
      escrow.publicKey(),
      passphrase,
    );
    expect(failed?.successful).toBe(false);
    const opOnly = ownTransaction(
      info(other, [
        Operation.payment({
          destination: to,
          asset: Asset.native(),
          amount: "1",
          source: escrow.publicKey(),
        }),
      ]),
      escrow.publicKey(),
      passphrase,
    );
    expect(opOnly).toMatchObject({ paidFee: false, moves: [{ op: 0, destination: to, amount: "10000000" }] });
  });

  it("is null for a transaction the account has no part in, even one paying it", () => {
    const payment = Operation.payment({
      destination: escrow.publicKey(),
      asset: Asset.native(),
      amount: "3",
    });
    expect(ownTransaction(info(other, [payment]), escrow.publicKey(), passphrase)).toBeNull();
  });
});
