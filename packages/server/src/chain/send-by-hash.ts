// The one send loop for a signed transaction, used by the submit relays (chain/submit.ts) and by the escrow's
// payouts (escrow/payouts.ts). Sending is idempotent by hash: the chain is asked about the hash before anything
// is sent, so an envelope the network already holds is never sent again, and after a send only its result is
// awaited. The wait is bounded in wall time as well as in polls, because a poll the RPC holds open until its own
// timeout must not multiply the budget; and a poll that fails after the send is only a missed look, never an
// error, since turning it into one would invite a second transaction for something already on its way.
import { type FeeBumpTransaction, rpc, type Transaction } from "@stellar/stellar-sdk";

/** The two calls the loop makes (a stub in tests). */
export type SendByHashRpc = Pick<rpc.Server, "getTransaction" | "sendTransaction">;

export type FinalResponse = rpc.Api.GetSuccessfulTransactionResponse | rpc.Api.GetFailedTransactionResponse;

export type SendByHashOutcome =
  /** Applied in a ledger, successfully or not: found before sending, or while polling after. */
  | { readonly status: "final"; readonly txHash: string; readonly response: FinalResponse }
  /** The network refused the envelope before any ledger (`sendTransaction` status ERROR). */
  | {
      readonly status: "refused";
      readonly txHash: string;
      readonly response: rpc.Api.SendTransactionResponse;
    }
  /** The network asked to try again later: nothing was queued. */
  | { readonly status: "try_again_later"; readonly txHash: string }
  /** Sent (or already queued) but not final within the budget: ask about this hash again later. */
  | { readonly status: "pending"; readonly txHash: string };

/** The chain gave no answer to the check before sending, or to the send itself; the caller decides what that means. */
export class ChainUnanswered extends Error {
  readonly stage: "check" | "send";
  readonly txHash: string;

  constructor(stage: "check" | "send", txHash: string, cause: unknown) {
    super(`the chain did not answer the ${stage === "check" ? "look-up" : "submission"} of ${txHash}`, {
      cause,
    });
    this.name = "ChainUnanswered";
    this.stage = stage;
    this.txHash = txHash;
  }
}

export interface SendByHashOptions {
  /** Most getTransaction polls after sending. */
  readonly attempts: number;
  /** Wall time the polls may take in all, in ms; whichever of this and `attempts` runs out first ends them. */
  readonly budgetMs: number;
  /** The pause before each poll (a devnet test closes a ledger here). */
  readonly wait: () => Promise<void>;
  /** Called right after `sendTransaction` returns, before its answer is read (a crash test's hook). */
  readonly afterSend?: () => Promise<void>;
  /** Milliseconds of a monotonic clock (default `performance.now`). */
  readonly clock?: () => number;
}

export function hashOf(tx: Transaction | FeeBumpTransaction): string {
  return Buffer.from(tx.hash()).toString("hex");
}

const isFinal = (got: rpc.Api.GetTransactionResponse): got is FinalResponse =>
  got.status === rpc.Api.GetTransactionStatus.SUCCESS || got.status === rpc.Api.GetTransactionStatus.FAILED;

/**
 * Sends `tx` unless the chain already knows its hash, then polls for its result. Throws ChainUnanswered when the
 * check before sending or the send itself fails (the envelope's fate is then unknown: only the same envelope
 * may be sent again, after asking the chain).
 */
export async function sendByHash(
  server: SendByHashRpc,
  tx: Transaction | FeeBumpTransaction,
  opts: SendByHashOptions,
): Promise<SendByHashOutcome> {
  const txHash = hashOf(tx);
  const clock = opts.clock ?? (() => performance.now());

  let known: rpc.Api.GetTransactionResponse;
  try {
    known = await server.getTransaction(txHash);
  } catch (err) {
    throw new ChainUnanswered("check", txHash, err);
  }
  if (isFinal(known)) return { status: "final", txHash, response: known };

  let sent: rpc.Api.SendTransactionResponse;
  try {
    sent = await server.sendTransaction(tx);
  } catch (err) {
    throw new ChainUnanswered("send", txHash, err);
  }
  await opts.afterSend?.();
  if (sent.status === "ERROR") return { status: "refused", txHash, response: sent };
  if (sent.status === "TRY_AGAIN_LATER") return { status: "try_again_later", txHash };

  // PENDING, or DUPLICATE: the network already has it queued or applied, so only its result is awaited.
  const deadline = clock() + opts.budgetMs;
  for (let i = 0; i < opts.attempts && clock() < deadline; i++) {
    await opts.wait();
    let got: rpc.Api.GetTransactionResponse;
    try {
      got = await server.getTransaction(txHash);
    } catch {
      continue;
    }
    if (isFinal(got)) return { status: "final", txHash, response: got };
  }
  return { status: "pending", txHash };
}
