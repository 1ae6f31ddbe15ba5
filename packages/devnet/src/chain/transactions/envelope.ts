// Decodes a submitted envelope into what validation and apply need; hashes come from the SDK.
import { FeeBumpTransaction, TransactionBuilder, xdr } from "@stellar/stellar-sdk";
import { muxedToAccountId } from "../accounts.ts";
import { toHex } from "../soroban/contract-ids.ts";

export interface TransactionBody {
  readonly source: string;
  readonly seqNum: bigint;
  readonly fee: bigint;
  readonly operations: readonly xdr.Operation[];
  readonly memo: xdr.Memo;
  readonly timeBounds?: { readonly minTime: bigint; readonly maxTime: bigint };
  readonly ledgerBounds?: { readonly minLedger: number; readonly maxLedger: number };
  readonly sorobanData?: xdr.SorobanTransactionData;
  readonly signatures: readonly xdr.DecoratedSignature[];
  readonly hash: Uint8Array;
}

export interface FeeBumpBody {
  readonly feeSource: string;
  readonly fee: bigint;
  readonly signatures: readonly xdr.DecoratedSignature[];
  readonly hash: Uint8Array;
}

export interface ParsedTransaction {
  readonly envelope: xdr.TransactionEnvelope;
  readonly envelopeXdr: string;
  readonly sizeBytes: number;
  /** Hex hash of the whole envelope (the fee-bump hash for fee bumps). */
  readonly hash: string;
  readonly inner: TransactionBody;
  readonly feeBump?: FeeBumpBody;
}

const SOROBAN_OPS = new Set(["invokeHostFunction", "extendFootprintTtl", "restoreFootprint"]);

export function isSorobanTransaction(body: TransactionBody): boolean {
  return body.operations.some((op) => SOROBAN_OPS.has(op.body.type));
}

export class MalformedEnvelopeError extends Error {}

function fromV1(
  tx: xdr.Transaction,
  signatures: readonly xdr.DecoratedSignature[],
  hash: Uint8Array,
): TransactionBody {
  const cond = tx.cond;
  let timeBounds: TransactionBody["timeBounds"];
  let ledgerBounds: TransactionBody["ledgerBounds"];
  if (cond.type === "precondTime") timeBounds = cond.timeBounds;
  else if (cond.type === "precondV2") {
    timeBounds = cond.v2.timeBounds ?? undefined;
    ledgerBounds = cond.v2.ledgerBounds ?? undefined;
  }
  return {
    source: muxedToAccountId(tx.sourceAccount),
    seqNum: tx.seqNum,
    fee: BigInt(tx.fee),
    operations: tx.operations,
    memo: tx.memo,
    timeBounds,
    ledgerBounds,
    sorobanData: tx.ext.type === "sorobanData" ? tx.ext.sorobanData : undefined,
    signatures,
    hash,
  };
}

export function parseTransaction(envelopeXdr: string, networkPassphrase: string): ParsedTransaction {
  let envelope: xdr.TransactionEnvelope;
  let sdkTx: ReturnType<typeof TransactionBuilder.fromXDR>;
  try {
    envelope = xdr.TransactionEnvelope.fromXdr(envelopeXdr, "base64");
    sdkTx = TransactionBuilder.fromXDR(envelope, networkPassphrase);
  } catch (error) {
    throw new MalformedEnvelopeError(error instanceof Error ? error.message : String(error));
  }
  const canonical = envelope.toXdr("base64");
  const sizeBytes = Buffer.byteLength(canonical, "base64");
  const hash = toHex(sdkTx.hash());
  switch (envelope.type) {
    case "envelopeTypeTx":
      return {
        envelope,
        envelopeXdr: canonical,
        sizeBytes,
        hash,
        inner: fromV1(envelope.v1.tx, envelope.v1.signatures, sdkTx.hash()),
      };
    case "envelopeTypeTxV0": {
      const tx = envelope.v0.tx;
      const inner: TransactionBody = {
        source: muxedToAccountId(xdr.MuxedAccount.keyTypeEd25519(tx.sourceAccountEd25519.value)),
        seqNum: tx.seqNum,
        fee: BigInt(tx.fee),
        operations: tx.operations,
        memo: tx.memo,
        timeBounds: tx.timeBounds ?? undefined,
        signatures: envelope.v0.signatures,
        hash: sdkTx.hash(),
      };
      return { envelope, envelopeXdr: canonical, sizeBytes, hash, inner };
    }
    case "envelopeTypeTxFeeBump": {
      if (!(sdkTx instanceof FeeBumpTransaction))
        throw new MalformedEnvelopeError("expected a fee-bump transaction");
      const feeBump = envelope.feeBump;
      const innerEnvelope = feeBump.tx.innerTx.value;
      return {
        envelope,
        envelopeXdr: canonical,
        sizeBytes,
        hash,
        inner: fromV1(innerEnvelope.tx, innerEnvelope.signatures, sdkTx.innerTransaction.hash()),
        feeBump: {
          feeSource: muxedToAccountId(feeBump.tx.feeSource),
          fee: feeBump.tx.fee,
          signatures: feeBump.signatures,
          hash: sdkTx.hash(),
        },
      };
    }
  }
}
