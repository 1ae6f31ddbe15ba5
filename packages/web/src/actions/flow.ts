// The steps of an action (action.ts) that need the SDK, loaded by action-flow.tsx when an action starts:
// `review` prepares it and checks the envelope with @namereg/client's verifyPrepared before anything is shown (the
// network, the wallet's account as source, exactly the one asked-for call, no other authorisation, the fee bound,
// an upper time bound), then reads the call back out of the verified envelope for the words; `signAndSubmit` has
// the wallet sign that very envelope, submits it and follows a 202 by submitting the same signed envelope again
// (docs/api.md "Prepare and submit": idempotent, never a second transaction) until the network decides. A claim
// announcement is checked by verifyAnnounce against the deployment's public RPC instead (action.ts).
import {
  DEFAULT_MAX_FEE_STROOPS,
  DEFAULT_MAX_VALIDITY_SECONDS,
  PreparedTransactionRejected,
  verifyAnnounce,
  verifyPrepared,
  verifyPreparedPayment,
} from "@namereg/client";
import { Address, FeeBumpTransaction, type Transaction, TransactionBuilder } from "@stellar/stellar-sdk";
import { api, unwrap } from "../api.ts";
import { AnnounceRefused } from "../errors.ts";
import { amount } from "../format.ts";
import { consoleHeaders, type Session } from "../wallet/session.ts";
import type { ConnectedWallet } from "../wallet/wallet.ts";
import type { Action, PreparedAction, PreparedAnnounce, PreparedPayment, SubmitTo } from "./action.ts";
import { feeInXlm, networkInWords, validUntil } from "./words.ts";

/** What the person reviews before signing, every part read from the verified envelope. */
export interface Review {
  readonly title: string;
  /** The call's arguments in words. */
  readonly lines: readonly string[];
  readonly contractWords: string;
  readonly contractId: string;
  readonly fn: string;
  readonly network: string;
  readonly fee: string;
  /** The upper time bound, an ISO instant (shown as a local date and time, the ISO under Details). */
  readonly validUntil: string;
  /** The account that signs and pays the fee. */
  readonly source: string;
  /** A public explorer's address for a transaction hash on this network, if it has one (not a local network). */
  readonly explorer: string | null;
  readonly prepared: PreparedAction | PreparedPayment | PreparedAnnounce;
  /** A payment's destination, amount and memo, read from the verified envelope (null for a contract call). */
  readonly payment: {
    readonly destination: string;
    readonly destinationWords: string;
    readonly amount: string;
    /** The hash memo's bytes in hex, and what it is in words. */
    readonly memo: string;
    readonly memoWords: string;
  } | null;
}

export type Outcome =
  | { readonly state: "included"; readonly txHash: string; readonly ledger: number }
  | { readonly state: "pending"; readonly txHash: string };

/** Where a person can look a transaction up, per network: a link the page offers, never fetched. */
const EXPLORERS: Readonly<Record<string, string>> = {
  "Public Global Stellar Network ; September 2015": "https://stellar.expert/explorer/public/tx/",
  "Test SDF Network ; September 2015": "https://stellar.expert/explorer/testnet/tx/",
};

/** Each submission waits up to about 10 s for the network; this many more make about two minutes in all. */
const RESUBMISSIONS = 10;
const PAUSE_MS = 2000;

export async function review(action: Action, wallet: ConnectedWallet, session: Session): Promise<Review> {
  const prepared = await action.prepare(wallet, session);
  if ("kind" in prepared)
    return prepared.kind === "announce"
      ? announceReview(action, prepared, wallet)
      : paymentReview(action, prepared, wallet);
  const { transaction, feeStroops } = verifyPrepared(prepared, {
    networkPassphrase: wallet.networkPassphrase,
    source: wallet.account,
    contractId: prepared.contractId,
    function: prepared.asked.function,
    args: prepared.asked.args,
  });
  const call = callOf(transaction);
  return {
    title: action.title,
    lines: prepared.describe(call.args),
    contractWords: prepared.contractWords,
    contractId: call.contractId,
    fn: call.fn,
    network: networkInWords(wallet.networkPassphrase),
    fee: feeInXlm(feeStroops),
    // verifyPrepared refused an envelope without an upper time bound.
    validUntil: validUntil(transaction.timeBounds?.maxTime ?? "0"),
    source: transaction.source,
    explorer: EXPLORERS[wallet.networkPassphrase] ?? null,
    prepared,
    payment: null,
  };
}

/** A payment's review: verifyPreparedPayment holds it to the expected destination, amount and memo first. */
function paymentReview(action: Action, prepared: PreparedPayment, wallet: ConnectedWallet): Review {
  const { transaction, feeStroops } = verifyPreparedPayment(prepared, {
    networkPassphrase: wallet.networkPassphrase,
    source: wallet.account,
    ...prepared.expected,
  });
  const [op] = transaction.operations;
  if (op?.type !== "payment") throw new Error("the verified transaction holds no payment");
  // "20.0000000" as a person writes it: "20 XLM".
  const xlm = amount(op.amount);
  const memo = transaction.memo.value;
  // The page has no Node Buffer: hex by hand from the memo's bytes.
  const memoHex =
    memo instanceof Uint8Array
      ? Array.from(memo, (byte) => byte.toString(16).padStart(2, "0")).join("")
      : String(memo);
  return {
    title: action.title,
    lines: [`Pay ${xlm} to ${prepared.destinationWords}.`, ...(prepared.lines ?? [])],
    contractWords: "",
    contractId: "",
    fn: "payment",
    network: networkInWords(wallet.networkPassphrase),
    fee: feeInXlm(feeStroops),
    validUntil: validUntil(transaction.timeBounds?.maxTime ?? "0"),
    source: transaction.source,
    explorer: EXPLORERS[wallet.networkPassphrase] ?? null,
    prepared,
    payment: {
      destination: op.destination,
      destinationWords: prepared.destinationWords,
      amount: xlm,
      memo: memoHex,
      memoWords: prepared.memoWords,
    },
  };
}

/**
 * A claim announcement's review: verifyAnnounce re-reads the allocator's policy from the public RPC and holds the
 * envelope to the reviewed label, basis and evidence, the signed-in claimant and exactly that fee; a refusal is
 * thrown as AnnounceRefused, which errors.ts says in words by its reason. The validity window is checked here as
 * verifyPrepared checks it: verifyAnnounce does not look at time bounds.
 */
async function announceReview(
  action: Action,
  prepared: PreparedAnnounce,
  wallet: ConnectedWallet,
): Promise<Review> {
  if (prepared.network !== wallet.networkPassphrase) {
    throw new PreparedTransactionRejected(
      "network_mismatch",
      `prepared for "${prepared.network}", the wallet signs for "${wallet.networkPassphrase}"`,
    );
  }
  const verified = await verifyAnnounce(prepared.xdr, {
    rpcUrl: prepared.rpcUrl,
    allocatorId: prepared.allocatorId,
    label: prepared.label,
    basis: prepared.basis,
    evidence: prepared.evidence,
    maxFeeStroops: DEFAULT_MAX_FEE_STROOPS,
    claimant: wallet.account,
    networkPassphrase: wallet.networkPassphrase,
  });
  if (!verified.ok) throw new AnnounceRefused(verified.reason, verified.detail);
  const decoded = TransactionBuilder.fromXDR(prepared.xdr, wallet.networkPassphrase);
  // verifyAnnounce refused a fee bump already; this narrows the type.
  if (decoded instanceof FeeBumpTransaction) throw new Error("a fee bump is never prepared");
  const maxTime = BigInt(decoded.timeBounds?.maxTime ?? "0");
  if (maxTime === 0n || maxTime > BigInt(Math.floor(Date.now() / 1000) + DEFAULT_MAX_VALIDITY_SECONDS)) {
    throw new PreparedTransactionRejected(
      "validity_too_long",
      maxTime === 0n ? "the transaction has no upper time bound" : `valid until ${maxTime}`,
    );
  }
  const call = callOf(decoded);
  return {
    title: action.title,
    lines: prepared.describe(verified.fee.amount),
    contractWords: "the claim allocator",
    contractId: call.contractId,
    fn: call.fn,
    network: networkInWords(wallet.networkPassphrase),
    fee: feeInXlm(BigInt(verified.networkFeeStroops)),
    validUntil: validUntil(maxTime),
    source: decoded.source,
    explorer: EXPLORERS[wallet.networkPassphrase] ?? null,
    prepared,
    payment: null,
  };
}

/** The one contract call of a verified envelope (verifyPrepared found exactly one). */
function callOf(transaction: Transaction) {
  const [op] = transaction.operations;
  if (op?.type !== "invokeHostFunction" || op.func.type !== "hostFunctionTypeInvokeContract")
    throw new Error("the verified transaction holds no contract call");
  const invoke = op.func.invokeContract;
  return {
    contractId: Address.fromScAddress(invoke.contractAddress).toString(),
    fn: invoke.functionName.toString(),
    args: invoke.args,
  };
}

export async function signAndSubmit(
  review: Review,
  wallet: ConnectedWallet,
  session: Session,
  onPending: (txHash: string) => void,
): Promise<Outcome> {
  const signed = await wallet.signer(review.prepared.xdr, { networkPassphrase: wallet.networkPassphrase });
  for (let attempt = 0; ; attempt++) {
    const answer = await submit(review.prepared.submit, signed, session);
    if (answer.ok) return { state: "included", txHash: answer.txHash, ledger: answer.ledger };
    if (attempt === RESUBMISSIONS) return { state: "pending", txHash: answer.txHash };
    onPending(answer.txHash);
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
}

function submit(to: SubmitTo, signed: string, session: Session) {
  return to.route === "holder"
    ? unwrap(api.POST("/records/submit", { body: { signedXdr: signed } }))
    : unwrap(
        api.POST("/console/tx/submit", {
          body: { xdr: signed },
          headers: consoleHeaders(session, to.namespace),
        }),
      );
}
