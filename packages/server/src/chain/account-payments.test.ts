// What counts as money reaching an account, read from one getTransactions entry: payments, path payments and
// Soroban token transfers (per-operation contract events), each with its kind; the transfer events that classic
// operations also emit (unified events) are not counted twice, and only the native token's own contract is XLM.
import {
  Account,
  Address,
  Asset,
  Keypair,
  Memo,
  Networks,
  nativeToScVal,
  Operation,
  rpc,
  StrKey,
  TransactionBuilder,
  xdr,
} from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { paymentsIn } from "./account-payments.ts";

const passphrase = Networks.TESTNET;
const account = Keypair.random().publicKey();
const payer = Keypair.random();
const nativeToken = Asset.native().contractId(passphrase);
const otherToken = StrKey.encodeContract(Buffer.alloc(32, 7));
const memo = "ab".repeat(32);

function transfer(
  contract: string,
  from: string,
  to: string,
  amount: bigint,
  asMap = false,
): xdr.ContractEvent {
  const i128 = nativeToScVal(amount, { type: "i128" });
  return new xdr.ContractEvent({
    ext: xdr.ExtensionPoint.v0(),
    contractId: new xdr.ContractId(StrKey.decodeContract(contract)),
    type: xdr.ContractEventType.contract,
    body: xdr.ContractEventBody.v0(
      new xdr.ContractEventV0({
        topics: [
          xdr.ScVal.scvSymbol("transfer"),
          new Address(from).toScVal(),
          new Address(to).toScVal(),
          xdr.ScVal.scvString("native"),
        ],
        data: asMap
          ? xdr.ScVal.scvMap([new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol("amount"), val: i128 })])
          : i128,
      }),
    ),
  });
}

function info(ops: xdr.Operation[], events: xdr.ContractEvent[][]): rpc.Api.TransactionInfo {
  const builder = new TransactionBuilder(new Account(payer.publicKey(), "1"), {
    fee: "100",
    networkPassphrase: passphrase,
  }).setTimeout(0);
  for (const op of ops) builder.addOperation(op);
  const tx = builder.addMemo(Memo.hash(memo)).build();
  return {
    status: rpc.Api.GetTransactionStatus.SUCCESS,
    ledger: 100,
    createdAt: 1_790_000_000,
    applicationOrder: 1,
    feeBump: false,
    txHash: "f".repeat(64),
    envelopeXdr: tx.toEnvelope(),
    events: { transactionEventsXdr: [], contractEventsXdr: events },
  } as unknown as rpc.Api.TransactionInfo;
}

const invoke = Operation.invokeContractFunction({ contract: nativeToken, function: "transfer", args: [] });

describe("paymentsIn", () => {
  it("counts a classic payment once, though unified events report it as a transfer too", () => {
    const payment = Operation.payment({ destination: account, asset: Asset.native(), amount: "10" });
    const got = paymentsIn(
      info([payment], [[transfer(nativeToken, payer.publicKey(), account, 100_000_000n)]]),
      account,
      passphrase,
    );
    expect(got.map((p) => [p.id, p.kind, p.asset, p.amount, p.memo])).toEqual([
      [`${"f".repeat(64)}:0`, "payment", "native", 100_000_000n, memo],
    ]);
  });

  it("reports native-token transfers to the account as XLM token_transfer; another contract's by its id", () => {
    const stranger = Keypair.random().publicKey();
    const got = paymentsIn(
      info(
        [invoke],
        [
          [
            transfer(nativeToken, payer.publicKey(), account, 50_000_000n),
            transfer(nativeToken, payer.publicKey(), stranger, 1n),
            transfer(otherToken, payer.publicKey(), account, 7n, true),
            transfer(nativeToken, account, stranger, 3n),
          ],
        ],
      ),
      account,
      passphrase,
    );
    expect(got.map((p) => [p.id, p.kind, p.asset, p.amount, p.source, p.memoType])).toEqual([
      [`${"f".repeat(64)}:0:0`, "token_transfer", "native", 50_000_000n, payer.publicKey(), "hash"],
      [`${"f".repeat(64)}:0:2`, "token_transfer", otherToken, 7n, payer.publicKey(), "hash"],
    ]);
  });

  it("reports a strict-receive path payment to the account with the amount it delivered", () => {
    const op = Operation.pathPaymentStrictReceive({
      sendAsset: new Asset("USDC", Keypair.random().publicKey()),
      sendMax: "100",
      destination: account,
      destAsset: Asset.native(),
      destAmount: "12.5",
      path: [],
    });
    expect(paymentsIn(info([op], []), account, passphrase).map((p) => [p.kind, p.asset, p.amount])).toEqual([
      ["path_payment", "native", 125_000_000n],
    ]);
  });
});
