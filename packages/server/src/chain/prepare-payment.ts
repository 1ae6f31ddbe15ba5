// Prepared (unsigned) classic payments for wallets: the one native `payment` a buyer's escrow deposit, a seller's
// bond or a billing period needs, with the hash memo that ties it to its intent, listing or namespace (docs/api.md
// "Marketplace", docs/billing.md). Only the routes that know such a destination call this; nothing here decides
// where money may go. The service never signs: the payer's wallet does, after checking destination, amount, memo,
// source, fee and time bound (@namereg/client's verifyPreparedPayment).
import { stroopsToXlm } from "@namereg/protocol";
import { Asset, Memo, Operation, type rpc, TransactionBuilder, type xdr } from "@stellar/stellar-sdk";
import { ApiError } from "../errors.ts";
import { loadAccountEntry, VALIDITY_SECONDS } from "./prepare.ts";

export interface PaymentOrder {
  /** The paying G account: the transaction's source and the only signer. */
  readonly source: string;
  readonly destination: string;
  /** Stroops of native XLM. */
  readonly amount: bigint;
  /** The MEMO_HASH, 64 lower-case hex characters. */
  readonly memoHash: string;
}

export interface PreparedPayment extends PaymentOrder {
  /** Base64 TransactionEnvelope, unsigned. */
  readonly xdr: string;
  /** The fee bid in stroops: the network's base fee for the one operation. */
  readonly fee: string;
  /** Unix seconds after which the network refuses the transaction. */
  readonly maxTime: string;
  readonly networkPassphrase: string;
}

/** A minimum balance counts two base reserves before the account's sub-entries. */
const BASE_ENTRIES = 2n;

/**
 * Builds the payment with the source's current sequence number, the latest ledger's base fee and a 15-minute
 * time bound. Throws ApiError 400 invalid_account (not a G account, or none on chain), 409 insufficient_balance
 * (the source cannot pay amount and fee above its reserve: a transaction that can only fail is never handed out),
 * 503 chain_unavailable.
 */
export async function preparePayment(
  server: rpc.Server,
  networkPassphrase: string,
  order: PaymentOrder,
): Promise<PreparedPayment> {
  const [loaded, header] = await Promise.all([loadAccountEntry(server, order.source), latestHeader(server)]);
  const fee = BigInt(header.baseFee);
  const spendable = spendableOf(loaded.entry, BigInt(header.baseReserve));
  if (spendable < order.amount + fee) {
    throw new ApiError("insufficient_balance", {
      detail: `${order.source} can spend ${stroopsToXlm(spendable > 0n ? spendable : 0n)} XLM above its reserve; the payment needs ${stroopsToXlm(order.amount + fee)} XLM with its fee`,
    });
  }
  const tx = new TransactionBuilder(loaded.account, { fee: fee.toString(), networkPassphrase })
    .addOperation(
      Operation.payment({
        destination: order.destination,
        asset: Asset.native(),
        amount: stroopsToXlm(order.amount),
      }),
    )
    .addMemo(Memo.hash(order.memoHash))
    .setTimeout(VALIDITY_SECONDS)
    .build();
  return {
    ...order,
    xdr: tx.toXDR(),
    fee: tx.fee,
    maxTime: tx.timeBounds?.maxTime ?? "0",
    networkPassphrase,
  };
}

/** Base fee and reserve of the latest closed ledger (the RPC's getLatestLedger carries its header). */
async function latestHeader(server: rpc.Server): Promise<{ baseFee: number; baseReserve: number }> {
  try {
    const latest = await server.getLatestLedger();
    return { baseFee: latest.headerXdr.baseFee, baseReserve: latest.headerXdr.baseReserve };
  } catch {
    throw new ApiError("chain_unavailable", { detail: "reading the latest ledger's base fee failed" });
  }
}

/**
 * What the account can send: its balance less its minimum balance ((2 + sub-entries + sponsoring − sponsored) ×
 * base reserve, as the network computes it) and its selling liabilities.
 */
function spendableOf(entry: xdr.AccountEntry, baseReserve: bigint): bigint {
  let entries = BASE_ENTRIES + BigInt(entry.numSubEntries);
  let selling = 0n;
  if (entry.ext.type === "v1") {
    selling = BigInt(entry.ext.v1.liabilities.selling);
    const v2 = entry.ext.v1.ext;
    if (v2.type === "v2") entries += BigInt(v2.v2.numSponsoring) - BigInt(v2.v2.numSponsored);
  }
  return BigInt(entry.balance) - entries * baseReserve - selling;
}
