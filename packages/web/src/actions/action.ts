// One change a person makes on chain from the page, as the action flow (action-flow.tsx) runs it: prepare (the
// service builds the transaction) → verify and show it in words → sign in the wallet → submit → follow. An action
// says only what is its own: how to prepare it, which contract call it must be (so verifyPrepared can hold the
// prepared transaction to exactly that call) and how the decoded call reads in words. Types only.
//
// Add an action: a module beside subnames.ts exporting functions that return an Action (it may import
// @namereg/client and @namereg/protocol: it is loaded only when the action runs), and a form in a page that hands
// `() => import("./that.ts").then((m) => m.theAction(args))` to <ActionFlow>.
import type { AskedCall } from "@namereg/client";
import type { xdr } from "@stellar/stellar-sdk";
import type { Session } from "../wallet/session.ts";
import type { ConnectedWallet } from "../wallet/wallet.ts";

/** Where the signed transaction goes: POST /records/submit, or POST /console/tx/submit for an owner's change. */
export type SubmitTo =
  | { readonly route: "holder" }
  | { readonly route: "console"; readonly namespace: string };

export interface PreparedAction {
  /** The prepare answer's unsigned envelope and the network it names. */
  readonly xdr: string;
  readonly network: string;
  /** The contract the call must go to, and what it is in words ("the registrar of namespace acme"). */
  readonly contractId: string;
  readonly contractWords: string;
  /** The call the request asked for (the client's holderCall/consoleCall): the only call that gets signed. */
  readonly asked: AskedCall;
  /** The decoded call's arguments in words, one sentence a line: "Create subname pay.alice.acme pointing to G…". */
  readonly describe: (args: readonly xdr.ScVal[]) => readonly string[];
  readonly submit: SubmitTo;
}

/**
 * A prepared XLM payment (a billing period, a listing's bond): held by verifyPreparedPayment to exactly this
 * destination, amount and hash memo, and reviewed in those words rather than as a contract call.
 */
export interface PreparedPayment {
  readonly kind: "payment";
  readonly xdr: string;
  readonly network: string;
  /** Whom it pays, in words ("the billing account of this service"), and what for. */
  readonly destinationWords: string;
  readonly expected: { readonly destination: string; readonly amountXlm: string; readonly memoHash: string };
  /** What the memo is, in words ("the node of namespace acme"). */
  readonly memoWords: string;
  /** More to say about the payment, one sentence a line (what happens to the money next). */
  readonly lines?: readonly string[];
  readonly submit: SubmitTo;
}

/**
 * A prepared claim announcement (`announce` on the allocator, with the fee's transfer beneath it): more than
 * verifyPrepared allows (it refuses any authorisation under the call), so it is held by @namereg/client's
 * verifyAnnounce instead, which re-reads the allocator's fee policy from `rpcUrl` — a public RPC, not this
 * service — and checks the allocator, the claimant, the label, basis and evidence, the native-token transfer of
 * exactly that fee and the network fee (docs/api.md "Claim fee", rule 2).
 */
export interface PreparedAnnounce {
  readonly kind: "announce";
  readonly xdr: string;
  readonly network: string;
  /** The public RPC the deployment names (GET /v1/network) for this check. */
  readonly rpcUrl: string;
  /** The allocator the reviewed quote named; verifyAnnounce holds the call and the fee's transfer to it. */
  readonly allocatorId: string;
  readonly label: string;
  readonly basis: readonly string[];
  readonly evidence: readonly { readonly label: string; readonly url: string }[];
  /** The verified announcement in words, one sentence a line; `feeStroops` is the fee as the chain's policy has it. */
  readonly describe: (feeStroops: string) => readonly string[];
  readonly submit: SubmitTo;
}

export interface Action {
  /** What the person asked for, in words: the review's heading ("Create subname pay.alice.acme"). */
  readonly title: string;
  /** Asks the service to build the transaction for the wallet's account (a prepare route through the client). */
  prepare(
    wallet: ConnectedWallet,
    session: Session,
  ): Promise<PreparedAction | PreparedPayment | PreparedAnnounce>;
  /** A page of this app that shows the result, offered after success. */
  readonly result?: { readonly href: string; readonly label: string };
}

/** An Action, loaded when it runs: `() => import("./subnames.ts").then((m) => m.createSubname(…))`. */
export type LoadAction = () => Promise<Action>;
