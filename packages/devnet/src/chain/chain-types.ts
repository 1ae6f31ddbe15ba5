// The chain's options and what it answers about transactions (submission status, applied records).
import type { xdr } from "@stellar/stellar-sdk";
import type { ClosedLedger } from "./ledger-close.ts";
import type { AppliedTransaction } from "./transactions/apply.ts";

export const STANDALONE_PASSPHRASE = "Standalone Network ; February 2017";
export const DEFAULT_RETENTION_LEDGERS = 17_280;

export interface ChainOptions {
  networkPassphrase?: string;
  /** Sequence of the genesis ledger (default 1; the first ledger closed after it is 2). */
  genesisLedger?: number;
  /** Close time of the genesis ledger, unix seconds (default: now). */
  genesisCloseTime?: number | bigint;
  /** Ledgers of history kept (events, transactions, ledgers). */
  retentionLedgers?: number;
}

export interface TransactionRecord {
  readonly hash: string;
  readonly ledger: ClosedLedger;
  readonly applicationOrder: number;
  readonly applied: AppliedTransaction;
  readonly envelopeXdr: string;
  readonly resultXdr: string;
  readonly resultMetaXdr: string;
}

export type SubmitStatus = "PENDING" | "DUPLICATE" | "TRY_AGAIN_LATER" | "ERROR";

export interface SubmitResult {
  readonly status: SubmitStatus;
  readonly hash: string;
  readonly errorResult?: xdr.TransactionResult;
}
