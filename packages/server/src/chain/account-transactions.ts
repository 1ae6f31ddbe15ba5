// The transactions an account itself signed or paid for, read from the same getTransactions pages as the payments
// it receives (chain/account-payments.ts): for the escrow, every payout it ever sent, with its memo, so that a
// watcher whose database was restored from before a payout can find it on chain instead of paying again, and
// `reconcile` can name every payment the database does not explain (docs/market.md "Guarantees").
import { xlmToStroops } from "@namereg/protocol";
import {
  type FeeBumpTransaction,
  rpc,
  type Transaction,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import { assetName, baseAccount, type MemoType, memoOf, txToid } from "./tx-parts.ts";

/** What one operation of the account's own transaction moved out of it (as signed; a failed one moved nothing). */
export interface OwnMove {
  /** The operation's index in the transaction. */
  readonly op: number;
  /** The operation type (`payment`, `createAccount`, `accountMerge`, …). */
  readonly type: string;
  readonly destination: string | null;
  /** `native` or `CODE:ISSUER`; null when the operation sends no asset of its own (a contract call). */
  readonly asset: string | null;
  /** Base units; null when the amount is not in the envelope (a merge: the whole balance; a contract call). */
  readonly amount: string | null;
}

export interface OwnTransaction {
  readonly txHash: string;
  readonly ledger: number;
  readonly toid: string;
  readonly closedAt: Date;
  /** Applied successfully; a failed transaction moved nothing but its fee. */
  readonly successful: boolean;
  /** The inner transaction's sequence number (decimal). */
  readonly sequence: string;
  readonly memoType: MemoType;
  readonly memo: string | null;
  /** Network fee charged (stroops), to whoever paid it. */
  readonly feeCharged: bigint;
  /** True when the account paid the network fee (source of the transaction, or of its fee bump). */
  readonly paidFee: boolean;
  /** The envelope as applied (base64 XDR). */
  readonly envelope: string;
  /** The operations the account is the source of (every operation of a transaction it is the source of). */
  readonly moves: OwnMove[];
}

type TxOperation = Transaction["operations"][number];

function moveOf(op: TxOperation, index: number): OwnMove {
  const base = { op: index, type: op.type };
  switch (op.type) {
    case "payment":
      return {
        ...base,
        destination: baseAccount(op.destination),
        asset: assetName(op.asset),
        amount: xlmToStroops(op.amount).toString(),
      };
    case "createAccount":
      return {
        ...base,
        destination: op.destination,
        asset: "native",
        amount: xlmToStroops(op.startingBalance).toString(),
      };
    case "pathPaymentStrictReceive":
      return {
        ...base,
        destination: baseAccount(op.destination),
        asset: assetName(op.sendAsset),
        amount: xlmToStroops(op.sendMax).toString(),
      };
    case "pathPaymentStrictSend":
      return {
        ...base,
        destination: baseAccount(op.destination),
        asset: assetName(op.sendAsset),
        amount: xlmToStroops(op.sendAmount).toString(),
      };
    case "accountMerge":
      return { ...base, destination: baseAccount(op.destination), asset: "native", amount: null };
    default:
      return { ...base, destination: null, asset: null, amount: null };
  }
}

/**
 * The transaction of a getTransactions page if `account` signed any part of it (its source, an operation's
 * source, or the fee bump's fee source), else null. Failed transactions count: they consumed a sequence number
 * and a fee.
 */
export function ownTransaction(
  info: rpc.Api.TransactionInfo,
  account: string,
  networkPassphrase: string,
): OwnTransaction | null {
  const parsed = TransactionBuilder.fromXDR(info.envelopeXdr, networkPassphrase) as
    | Transaction
    | FeeBumpTransaction;
  const bump = "innerTransaction" in parsed ? parsed : null;
  const tx = bump === null ? (parsed as Transaction) : bump.innerTransaction;
  const txSource = baseAccount(tx.source);
  const feeSource = bump === null ? txSource : baseAccount(bump.feeSource);
  const moves = tx.operations.flatMap((op, index) =>
    baseAccount(op.source ?? tx.source) === account ? [moveOf(op, index)] : [],
  );
  if (moves.length === 0 && txSource !== account && feeSource !== account) return null;
  const result = info.resultXdr as xdr.TransactionResult | undefined;
  return {
    txHash: info.txHash,
    ledger: info.ledger,
    toid: txToid(info.ledger, info.applicationOrder),
    closedAt: new Date(info.createdAt * 1000),
    successful: info.status === rpc.Api.GetTransactionStatus.SUCCESS,
    sequence: tx.sequence,
    ...memoOf(tx),
    feeCharged: result === undefined ? 0n : BigInt(result.feeCharged.toString()),
    paidFee: feeSource === account,
    envelope: parsed.toEnvelope().toXDR("base64"),
    moves,
  };
}
