// The steps of an action (action.ts) that need the SDK, loaded by action-flow.tsx when an action starts:
// `review` prepares it and checks the envelope with @namereg/client's verifyPrepared before anything is shown (the
// network, the wallet's account as source, exactly the one asked-for call, no other authorisation, the fee bound,
// an upper time bound), then reads the call back out of the verified envelope for the words; `signAndSubmit` has
// the wallet sign that very envelope, submits it and follows a 202 by submitting the same signed envelope again
// (docs/api.md "Prepare and submit": idempotent, never a second transaction) until the network decides.
import { verifyPrepared, verifyPreparedPayment } from "@namereg/client";
import { Address, type Transaction } from "@stellar/stellar-sdk";
import { api, unwrap } from "../api.ts";
import { consoleHeaders, type Session } from "../wallet/session.ts";
import type { ConnectedWallet } from "../wallet/wallet.ts";
import type { Action, PreparedAction, PreparedPayment, SubmitTo } from "./action.ts";
import { feeInXlm, networkInWords, validUntil } from "./words.ts";

/** What the person reviews before signing, every part read from the verified envelope. */
export interface Review {
  /** A contract call, or a classic payment (then `contractWords`/`contractId` are the destination, `fn` "payment"). */
  readonly kind: "call" | "payment";
  readonly title: string;
  /** The call's arguments in words. */
  readonly lines: readonly string[];
  readonly contractWords: string;
  readonly contractId: string;
  readonly fn: string;
  readonly network: string;
  readonly fee: string;
  readonly validUntil: string;
  /** The account that signs and pays the fee. */
  readonly source: string;
  /** A public explorer's address for a transaction hash on this network, if it has one (not a local network). */
  readonly explorer: string | null;
  readonly prepared: PreparedAction | PreparedPayment;
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
  if (prepared.kind === "payment") return reviewPayment(action, prepared, wallet);
  const { transaction, feeStroops } = verifyPrepared(prepared, {
    networkPassphrase: wallet.networkPassphrase,
    source: wallet.account,
    contractId: prepared.contractId,
    function: prepared.asked.function,
    args: prepared.asked.args,
  });
  const call = callOf(transaction);
  return {
    kind: "call",
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
  };
}

/** A payment, checked against what the person reviewed (destination, amount, memo) before it is shown. */
function reviewPayment(action: Action, prepared: PreparedPayment, wallet: ConnectedWallet): Review {
  const { transaction, feeStroops } = verifyPreparedPayment(prepared, {
    networkPassphrase: wallet.networkPassphrase,
    source: wallet.account,
    destination: prepared.to,
    amountXlm: prepared.amountXlm,
    memoHash: prepared.memoHash,
  });
  return {
    kind: "payment",
    title: action.title,
    lines: prepared.lines,
    contractWords: prepared.toWords,
    contractId: prepared.to,
    fn: "payment",
    network: networkInWords(wallet.networkPassphrase),
    fee: feeInXlm(feeStroops),
    validUntil: validUntil(transaction.timeBounds?.maxTime ?? "0"),
    source: transaction.source,
    explorer: EXPLORERS[wallet.networkPassphrase] ?? null,
    prepared,
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
