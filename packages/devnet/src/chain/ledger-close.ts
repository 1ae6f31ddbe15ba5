// Ledger headers (hash-chained) and LedgerCloseMeta v2 for closed ledgers.
import { hash, xdr } from "@stellar/stellar-sdk";
import { BASE_FEE, BASE_RESERVE } from "./accounts.ts";
import { toHex } from "./soroban/contract-ids.ts";
import type { AppliedTransaction } from "./transactions/apply.ts";

export const PROTOCOL_VERSION = 23;
/** 100 billion XLM, the network's fixed supply. */
export const TOTAL_COINS = 1_000_000_000_000_000_000n;

export interface LedgerTransactionRecord {
  readonly applied: AppliedTransaction;
  readonly hash: string;
  readonly applicationOrder: number;
}

export interface ClosedLedger {
  readonly sequence: number;
  /** Unix seconds. */
  readonly closeTime: number;
  readonly hash: Uint8Array;
  readonly hashHex: string;
  readonly header: xdr.LedgerHeader;
  /** Base64 LedgerHeader, as getLatestLedger serves it. */
  readonly headerXdr: string;
  readonly transactions: readonly LedgerTransactionRecord[];
  readonly txSet: xdr.GeneralizedTransactionSet;
}

const ZERO_HASH = new Uint8Array(32);

function buildTxSet(
  previousLedgerHash: Uint8Array,
  txs: readonly LedgerTransactionRecord[],
): xdr.GeneralizedTransactionSet {
  const classic = txs
    .filter((t) => t.applied.tx.inner.sorobanData === undefined)
    .map((t) => t.applied.tx.envelope);
  const soroban = txs
    .filter((t) => t.applied.tx.inner.sorobanData !== undefined)
    .map((t) => t.applied.tx.envelope);
  return xdr.GeneralizedTransactionSet.v1TxSet(
    new xdr.TransactionSetV1({
      previousLedgerHash,
      phases: [
        xdr.TransactionPhase.v0Components(
          classic.length === 0
            ? []
            : [
                xdr.TxSetComponent.txsetCompTxsMaybeDiscountedFee(
                  new xdr.TxSetComponentTxsMaybeDiscountedFee({ baseFee: BigInt(BASE_FEE), txs: classic }),
                ),
              ],
        ),
        xdr.TransactionPhase.parallelTxsComponent(
          new xdr.ParallelTxsComponent({
            baseFee: soroban.length === 0 ? null : BigInt(BASE_FEE),
            executionStages: soroban.length === 0 ? [] : [[soroban]],
          }),
        ),
      ],
    }),
  );
}

export interface CloseInput {
  readonly sequence: number;
  readonly closeTime: number;
  readonly previous: ClosedLedger | undefined;
  readonly transactions: readonly LedgerTransactionRecord[];
  readonly feePool: bigint;
}

export function closeLedgerHeader(input: CloseInput): ClosedLedger {
  const previousHash = input.previous?.hash ?? ZERO_HASH;
  const txSet = buildTxSet(previousHash, input.transactions);
  const resultSet = new xdr.TransactionResultSet({
    results: input.transactions.map(
      (t) =>
        new xdr.TransactionResultPair({
          transactionHash: Buffer.from(t.hash, "hex"),
          result: t.applied.result,
        }),
    ),
  });
  const header = new xdr.LedgerHeader({
    ledgerVersion: PROTOCOL_VERSION,
    previousLedgerHash: previousHash,
    scpValue: new xdr.StellarValue({
      txSetHash: hash(txSet.toXdr()),
      closeTime: BigInt(input.closeTime),
      upgrades: [],
      ext: xdr.StellarValueExt.stellarValueBasic(),
    }),
    txSetResultHash: hash(resultSet.toXdr()),
    // There is no bucket list; a hash chained from the previous ledger stands in for it.
    bucketListHash: hash(Buffer.concat([Buffer.from("bucket-list"), previousHash])),
    ledgerSeq: input.sequence,
    totalCoins: TOTAL_COINS,
    feePool: input.feePool,
    inflationSeq: 0,
    idPool: 0n,
    baseFee: BASE_FEE,
    baseReserve: Number(BASE_RESERVE),
    maxTxSetSize: 1000,
    skipList: [ZERO_HASH, ZERO_HASH, ZERO_HASH, ZERO_HASH],
    ext: xdr.LedgerHeaderExt.v0(),
  });
  const headerBytes = header.toXdr();
  const ledgerHash = hash(headerBytes);
  return {
    sequence: input.sequence,
    closeTime: input.closeTime,
    hash: ledgerHash,
    hashHex: toHex(ledgerHash),
    header,
    headerXdr: Buffer.from(headerBytes).toString("base64"),
    transactions: input.transactions,
    txSet,
  };
}

export function historyEntry(ledger: ClosedLedger): xdr.LedgerHeaderHistoryEntry {
  return new xdr.LedgerHeaderHistoryEntry({
    hash: ledger.hash,
    header: ledger.header,
    ext: xdr.LedgerHeaderHistoryEntryExt.v0(),
  });
}

export function ledgerCloseMeta(ledger: ClosedLedger): xdr.LedgerCloseMeta {
  return xdr.LedgerCloseMeta.v2(
    new xdr.LedgerCloseMetaV2({
      ext: xdr.LedgerCloseMetaExt.v0(),
      ledgerHeader: historyEntry(ledger),
      txSet: ledger.txSet,
      txProcessing: ledger.transactions.map(
        (t) =>
          new xdr.TransactionResultMetaV1({
            ext: xdr.ExtensionPoint.v0(),
            result: new xdr.TransactionResultPair({
              transactionHash: Buffer.from(t.hash, "hex"),
              result: t.applied.result,
            }),
            feeProcessing: t.applied.feeChanges,
            txApplyProcessing: t.applied.meta,
            postTxApplyFeeProcessing: t.applied.postFeeChanges,
          }),
      ),
      upgradesProcessing: [],
      scpInfo: [],
      totalByteSizeOfLiveSorobanState: 0n,
      evictedKeys: [],
    }),
  );
}
