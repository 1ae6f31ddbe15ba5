// Submission of transactions a wallet signed (docs/design.md "Data flow" 6; docs/api.md "Prepare and submit (not under /v1)"). Submitting is idempotent by
// transaction hash (the send loop is send-by-hash.ts, shared with the escrow's payouts): the chain is asked about
// the hash before anything is sent, and a DUPLICATE answer means the network already holds it, so resubmitting
// the same signed XDR never creates a second transaction. While a transaction is not final within the polling
// budget the answer is "pending" with its original hash.
import { type ErrorCode, isAccountId } from "@namereg/protocol";
import {
  FeeBumpTransaction,
  Keypair,
  rpc,
  type Transaction,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import { ApiError } from "../errors.ts";
import { originOfContractError, specCodeOf } from "./contract-failure.ts";
import { ChainUnanswered, type FinalResponse, type SendByHashOutcome, sendByHash } from "./send-by-hash.ts";

export type SubmitOutcome =
  | { status: "success"; txHash: string; ledger: number }
  | { status: "pending"; txHash: string }
  | {
      status: "failed";
      txHash: string;
      resultCode: string;
      contractError: number | null;
      /** The spec code of `contractError`, judged by the contract that raised it; null when none applies. */
      code: ErrorCode | null;
      /**
       * When the network refused the signatures (`txBadAuth`): the account whose signature the transaction
       * needed, i.e. its source (the `signer` a prepare answer names), or a fee bump's fee source when the outer
       * envelope was refused. Null for every other failure.
       */
      signer: string | null;
    };

export interface SubmitOptions {
  /** getTransaction polls after sending (default 20). */
  attempts?: number;
  /** Wait before each poll, in ms (default 500). */
  intervalMs?: number;
}

const DEFAULT_ATTEMPTS = 20;
const DEFAULT_INTERVAL_MS = 500;

/**
 * Sends `signedXdr` unless the chain already knows it, then polls for its result. Throws ApiError 400
 * invalid_request for XDR that is not a signed transaction of this network, 503 chain_unavailable when the
 * chain cannot be asked before sending or asks to try again later.
 */
export async function submitSigned(
  server: rpc.Server,
  networkPassphrase: string,
  signedXdr: string,
  opts: SubmitOptions = {},
): Promise<SubmitOutcome> {
  const tx = parseSigned(signedXdr, networkPassphrase);
  const attempts = opts.attempts ?? DEFAULT_ATTEMPTS;
  const intervalMs = opts.intervalMs ?? DEFAULT_INTERVAL_MS;
  let sent: SendByHashOutcome;
  try {
    sent = await sendByHash(server, tx, {
      attempts,
      budgetMs: attempts * intervalMs,
      wait: () => sleep(intervalMs),
    });
  } catch (err) {
    if (!(err instanceof ChainUnanswered)) throw err;
    // Unanswered, the send may still have reached the network: the same envelope is the only safe retry.
    throw err.stage === "check"
      ? new ApiError("chain_unavailable", { detail: "the chain could not be reached" })
      : new ApiError("chain_unavailable", {
          detail:
            "the chain did not answer the submission; submit the same signed transaction again to learn its outcome",
          txHash: err.txHash,
        });
  }
  switch (sent.status) {
    case "final":
      return finalOutcome(tx, sent.txHash, sent.response, networkPassphrase);
    case "try_again_later":
      throw new ApiError("chain_unavailable", {
        detail: "the network asked to try again later; submit the same signed transaction again",
        txHash: sent.txHash,
      });
    case "refused":
      return {
        status: "failed",
        txHash: sent.txHash,
        resultCode: resultCodeOf(sent.response.errorResult),
        ...contractFailureOf(sent.response.diagnosticEvents ?? [], networkPassphrase),
        signer: neededSigner(tx, sent.response.errorResult),
      };
    case "pending":
      return { status: "pending", txHash: sent.txHash };
  }
}

const invalid = (detail: string) => new ApiError("invalid_request", { detail });

/**
 * The transaction, provided it is one and is signed for this network. The network cannot be read from an
 * envelope; it is part of the signed hash, so a signature by the source key that does not verify against this
 * network's hash means another network (or a tampered envelope). Signatures by other keys (multisig) are left
 * for the network to judge.
 */
function parseSigned(signedXdr: string, networkPassphrase: string): Transaction | FeeBumpTransaction {
  let tx: Transaction | FeeBumpTransaction;
  try {
    tx = TransactionBuilder.fromXDR(signedXdr.trim(), networkPassphrase);
  } catch {
    throw invalid("signedXdr: is not a base64 transaction envelope");
  }
  if (tx.signatures.length === 0) throw invalid("signedXdr: the transaction is not signed");
  const source = tx instanceof FeeBumpTransaction ? tx.feeSource : tx.source;
  if (isAccountId(source)) {
    const key = Keypair.fromPublicKey(source);
    const hint = key.signatureHint();
    const hash = tx.hash();
    const bySource = tx.signatures.filter((s) => Buffer.from(s.hint.value).equals(Buffer.from(hint)));
    if (bySource.length > 0 && !bySource.some((s) => key.verify(hash, s.signature))) {
      throw invalid("signedXdr: is not signed for this network");
    }
  }
  return tx;
}

function finalOutcome(
  tx: Transaction | FeeBumpTransaction,
  txHash: string,
  got: FinalResponse,
  networkPassphrase: string,
): SubmitOutcome {
  if (got.status === rpc.Api.GetTransactionStatus.SUCCESS)
    return { status: "success", txHash, ledger: got.ledger };
  return {
    status: "failed",
    txHash,
    resultCode: resultCodeOf(got.resultXdr),
    ...contractFailureOf(
      [...(got.diagnosticEventsXdr ?? []), ...metaDiagnostics(got.resultMetaXdr)],
      networkPassphrase,
    ),
    signer: neededSigner(tx, got.resultXdr),
  };
}

/**
 * The account whose signature a `txBadAuth` refusal was about: a fee bump's fee source when the outer envelope
 * was refused, else the (inner) transaction's source. The relayed transactions are single calls without
 * operation-level sources, so the source is the one account that had to sign. Null for any other result.
 */
function neededSigner(
  tx: Transaction | FeeBumpTransaction,
  result: xdr.TransactionResult | undefined,
): string | null {
  if (result === undefined) return null;
  const outer = result.result;
  if (outer.type === "txFeeBumpInnerFailed") {
    const inner = outer.innerResultPair.result.result.type;
    return inner === "txBadAuth" && tx instanceof FeeBumpTransaction ? tx.innerTransaction.source : null;
  }
  if (outer.type !== "txBadAuth") return null;
  return tx instanceof FeeBumpTransaction ? tx.feeSource : tx.source;
}

/** The transaction-level result code (`txFailed`, `txBadSeq`…), the inner one for a fee bump. */
function resultCodeOf(result: xdr.TransactionResult | undefined): string {
  if (result === undefined) return "unknown";
  const outer = result.result;
  if (outer.type === "txFeeBumpInnerSuccess" || outer.type === "txFeeBumpInnerFailed") {
    return outer.innerResultPair.result.result.type;
  }
  return outer.type;
}

/** Diagnostic events kept in the result meta (v3: in sorobanMeta, v4: at the top), when the node keeps them. */
function metaDiagnostics(meta: xdr.TransactionMeta): xdr.DiagnosticEvent[] {
  if (meta.type === "v3") return meta.v3.sorobanMeta?.diagnosticEvents ?? [];
  if (meta.type === "v4") return meta.v4.diagnosticEvents;
  return [];
}

/** The contract error of a failure and its spec code, judged by the contract where it started. */
function contractFailureOf(
  events: readonly xdr.DiagnosticEvent[],
  networkPassphrase: string,
): { contractError: number | null; code: ErrorCode | null } {
  const origin = originOfContractError(events);
  const contractError = origin?.code ?? contractErrorOf(events);
  if (contractError === null) return { contractError, code: null };
  return {
    contractError,
    code: specCodeOf({ contractId: origin?.contractId ?? null, code: contractError }, networkPassphrase),
  };
}

/** `Error(Contract, #n)` from the failure's diagnostic events (topic or data), or null when none says. */
function contractErrorOf(events: readonly xdr.DiagnosticEvent[]): number | null {
  for (const event of events) {
    const body = event.event.body.v0;
    for (const value of [...body.topics, body.data]) {
      if (value.type === "scvError" && value.error.type === "sceContract") return value.error.contractCode;
    }
  }
  return null;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
