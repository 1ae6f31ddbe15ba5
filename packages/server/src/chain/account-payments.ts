// The payments one account receives, read from the chain's transactions (getTransactions) from a durable cursor.
// A real Stellar RPC's getTransactions has no account filter, so this pages every transaction and keeps what
// credits the account: `payment` operations, and the other ways money reaches it (path payments, account merges,
// and Soroban token `transfer` events, read from the same transaction's contract events), each marked with its
// kind so a consumer can hold what it cannot judge instead of absorbing it. Shared by the escrow watcher and the
// billing watcher, which read it through watchers/payment-ingest.ts (the durable cursor and the storing).

import { xlmToStroops } from "@namereg/protocol";
import {
  Asset,
  type FeeBumpTransaction,
  rpc,
  StrKey,
  scValToNative,
  type Transaction,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import { type OwnTransaction, ownTransaction } from "./account-transactions.ts";
import { assetName, baseAccount, type MemoType, memoOf, txToid } from "./tx-parts.ts";

export { baseAccount, txToid };

/**
 * How the money arrived: a `payment` operation (the only kind a watcher judges on its own), a path payment, an
 * account merge, or a Soroban token contract's `transfer` to the account (the Stellar Asset Contract moves XLM
 * this way without any payment operation).
 */
export type PaymentKind = "payment" | "path_payment" | "account_merge" | "token_transfer";

export interface AccountPayment {
  /** `txHash:operationIndex` (a token transfer: `txHash:operationIndex:eventIndex`): unique per payment. */
  readonly id: string;
  readonly kind: PaymentKind;
  readonly ledger: number;
  /** TOID of the transaction, 19 digits zero-padded: sorts in chain order against event ids (`%019d-%010d`). */
  readonly toid: string;
  readonly closedAt: Date;
  readonly txHash: string;
  readonly operationIndex: number;
  /** The paying account (the operation's source, else the transaction's; a muxed source as its G account). */
  readonly source: string;
  /**
   * `native` or `CODE:ISSUER`; a token transfer: `native` only from the native token's own contract (the SAC
   * for XLM, whose balance is the account's XLM), else the token contract's `C…` id.
   */
  readonly asset: string;
  /** Base units (stroops for XLM). */
  readonly amount: bigint;
  readonly memoType: MemoType;
  /** Hash and return memos as 64 lower-case hex; text as text; id as a decimal string. */
  readonly memo: string | null;
}

export interface PaymentsPage {
  readonly payments: AccountPayment[];
  /** The account's own transactions in the page (chain/account-transactions.ts): what it sent. */
  readonly own: OwnTransaction[];
  /** Cursor to continue from (store it with the payments). */
  readonly cursor: string;
  /** True when the page reached the RPC's latest ledger (nothing more to read now). */
  readonly atHead: boolean;
  readonly latestLedger: number;
}

export interface AccountPaymentsSource {
  readonly server: rpc.Server;
  readonly networkPassphrase: string;
  readonly account: string;
  /** Transactions per getTransactions request (max 200 on a real RPC). */
  readonly pageSize?: number;
  /** Also read the account's own transactions (what it sent): the escrow's payouts. */
  readonly own?: boolean;
}

/** The operation results of a successful transaction (inside a fee bump, the inner transaction's). */
function operationResults(result: xdr.TransactionResult | undefined): xdr.OperationResult[] {
  if (result === undefined) return [];
  const outer = result.result;
  if (outer.type === "txSuccess") return outer.results;
  if (outer.type === "txFeeBumpInnerSuccess") {
    const inner = outer.innerResultPair.result.result;
    return inner.type === "txSuccess" ? inner.results : [];
  }
  return [];
}

/** What a successful path payment delivered (strict send: read from its result, as only `destMin` is signed). */
function strictSendAmount(results: xdr.OperationResult[], index: number): bigint | null {
  const op = results[index];
  if (op?.type !== "opInner" || op.tr.type !== "pathPaymentStrictSend") return null;
  const r = op.tr.pathPaymentStrictSendResult;
  return r.type === "pathPaymentStrictSendSuccess" ? r.success.last.amount : null;
}

function mergedAmount(results: xdr.OperationResult[], index: number): bigint | null {
  const op = results[index];
  if (op?.type !== "opInner" || op.tr.type !== "accountMerge") return null;
  const r = op.tr.accountMergeResult;
  return r.type === "accountMergeSuccess" ? r.sourceAccountBalance : null;
}

/**
 * The contract events of operation `index`: from the RPC's per-operation `events.contractEventsXdr`, else from the
 * transaction meta (v4 per operation; v3, before unified events, on the transaction's one Soroban operation).
 */
function contractEvents(info: rpc.Api.TransactionInfo, index: number): xdr.ContractEvent[] {
  const served = info.events?.contractEventsXdr?.[index];
  if (served !== undefined && served.length > 0) return served;
  const meta = info.resultMetaXdr as xdr.TransactionMeta | undefined;
  if (meta === undefined) return [];
  if (meta.type === "v4") return meta.v4.operations[index]?.events ?? [];
  if (meta.type === "v3" && index === 0) return meta.v3.sorobanMeta?.events ?? [];
  return [];
}

interface TokenTransfer {
  readonly contract: string;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
}

/**
 * A SEP-41 `transfer(from, to, amount)` event: topics `["transfer", from, to, …]`, data the i128 amount (or, since
 * unified events, a map whose `amount` is the i128 and whose `to_muxed_id` carries a muxed destination's id).
 */
function tokenTransfer(event: xdr.ContractEvent): TokenTransfer | null {
  if (event.type.name !== "contract" || event.contractId === null || event.body.type !== "v0") return null;
  const { topics, data } = event.body.v0;
  const [name, from, to] = topics;
  if (topics.length < 3 || name?.type !== "scvSymbol" || from === undefined || to === undefined) return null;
  if (scValToNative(name) !== "transfer" || from.type !== "scvAddress" || to.type !== "scvAddress")
    return null;
  let value: unknown;
  try {
    value = scValToNative(data);
  } catch {
    return null;
  }
  const amount =
    typeof value === "bigint"
      ? value
      : typeof value === "object" &&
          value !== null &&
          typeof (value as { amount?: unknown }).amount === "bigint"
        ? (value as { amount: bigint }).amount
        : null;
  if (amount === null || amount <= 0n) return null;
  const toAddress = address(to);
  if (toAddress === null) return null;
  return {
    contract: StrKey.encodeContract(Buffer.from(event.contractId.toBytes())),
    // An address kind this SDK cannot render must not stop the stream: the money is still recorded (and held).
    from: address(from) ?? "unknown",
    to: toAddress,
    amount,
  };
}

function address(value: xdr.ScVal): string | null {
  try {
    return baseAccount(String(scValToNative(value)));
  } catch {
    return null;
  }
}

/** The payments to `account` in one transaction of a getTransactions page (successful transactions only). */
export function paymentsIn(
  info: rpc.Api.TransactionInfo,
  account: string,
  networkPassphrase: string,
): AccountPayment[] {
  if (info.status !== rpc.Api.GetTransactionStatus.SUCCESS) return [];
  const parsed = TransactionBuilder.fromXDR(info.envelopeXdr, networkPassphrase) as
    | Transaction
    | FeeBumpTransaction;
  const tx = "innerTransaction" in parsed ? parsed.innerTransaction : parsed;
  const memo = memoOf(tx);
  const results = operationResults(info.resultXdr as xdr.TransactionResult | undefined);
  const nativeToken = Asset.native().contractId(networkPassphrase);
  const out: AccountPayment[] = [];
  const base = (index: number, opSource: string | undefined) => ({
    ledger: info.ledger,
    toid: txToid(info.ledger, info.applicationOrder),
    closedAt: new Date(info.createdAt * 1000),
    txHash: info.txHash,
    operationIndex: index,
    source: baseAccount(opSource ?? tx.source),
    ...memo,
  });
  tx.operations.forEach((op, index) => {
    switch (op.type) {
      case "payment":
        if (baseAccount(op.destination) !== account) return;
        out.push({
          id: `${info.txHash}:${index}`,
          kind: "payment",
          asset: assetName(op.asset),
          amount: xlmToStroops(op.amount),
          ...base(index, op.source),
        });
        return;
      case "pathPaymentStrictReceive":
      case "pathPaymentStrictSend": {
        if (baseAccount(op.destination) !== account) return;
        const amount =
          op.type === "pathPaymentStrictReceive"
            ? xlmToStroops(op.destAmount)
            : strictSendAmount(results, index);
        if (amount === null) return;
        out.push({
          id: `${info.txHash}:${index}`,
          kind: "path_payment",
          asset: assetName(op.destAsset),
          amount,
          ...base(index, op.source),
        });
        return;
      }
      case "accountMerge": {
        if (baseAccount(op.destination) !== account) return;
        const amount = mergedAmount(results, index);
        if (amount === null) return;
        out.push({
          id: `${info.txHash}:${index}`,
          kind: "account_merge",
          asset: "native",
          amount,
          ...base(index, op.source),
        });
        return;
      }
      case "invokeHostFunction":
        // Only a Soroban operation's events count: since unified events, classic operations emit `transfer`
        // events too, and those are the payments above, already counted.
        contractEvents(info, index).forEach((event, eventIndex) => {
          const transfer = tokenTransfer(event);
          if (transfer === null || transfer.to !== account || transfer.from === account) return;
          out.push({
            id: `${info.txHash}:${index}:${eventIndex}`,
            kind: "token_transfer",
            asset: transfer.contract === nativeToken ? "native" : transfer.contract,
            amount: transfer.amount,
            ...base(index, op.source),
            source: transfer.from,
          });
        });
        return;
      default:
        return;
    }
  });
  return out;
}

/** One page of payments to the account after `cursor` (or from `startLedger` when there is no cursor yet). */
export async function readPaymentsPage(
  source: AccountPaymentsSource,
  from: { cursor: string | null; startLedger: number },
): Promise<PaymentsPage> {
  const limit = source.pageSize ?? 200;
  const response =
    from.cursor === null
      ? await source.server.getTransactions({ startLedger: from.startLedger, pagination: { limit } })
      : await source.server.getTransactions({ pagination: { cursor: from.cursor, limit } });
  const payments = response.transactions.flatMap((info) =>
    paymentsIn(info, source.account, source.networkPassphrase),
  );
  const own =
    source.own === true
      ? response.transactions.flatMap(
          (info) => ownTransaction(info, source.account, source.networkPassphrase) ?? [],
        )
      : [];
  return {
    payments,
    own,
    cursor: response.cursor,
    atHead: response.transactions.length < limit,
    latestLedger: response.latestLedger,
  };
}
