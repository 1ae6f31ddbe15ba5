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
  readonly kind?: "call";
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
 * A classic payment (the buyer's escrow deposit): no contract call, so it is held by @namereg/client's
 * verifyPreparedPayment to exactly what the person reviewed before preparing (the intent's `pay`), never to what
 * the prepare answer says.
 */
export interface PreparedPayment {
  readonly kind: "payment";
  readonly xdr: string;
  readonly network: string;
  /** The destination, amount and hash memo as reviewed (the intent's `pay`). */
  readonly to: string;
  readonly amountXlm: string;
  readonly memoHash: string;
  /** Who the destination is, in words ("the marketplace escrow"). */
  readonly toWords: string;
  /** Why the payment is made, one sentence a line. */
  readonly lines: readonly string[];
  readonly submit: SubmitTo;
}

export interface Action {
  /** What the person asked for, in words: the review's heading ("Create subname pay.alice.acme"). */
  readonly title: string;
  /** Asks the service to build the transaction for the wallet's account (a prepare route through the client). */
  prepare(wallet: ConnectedWallet, session: Session): Promise<PreparedAction | PreparedPayment>;
  /** A page of this app that shows the result, offered after success. */
  readonly result?: { readonly href: string; readonly label: string };
}

/** An Action, loaded when it runs: `() => import("./subnames.ts").then((m) => m.createSubname(…))`. */
export type LoadAction = () => Promise<Action>;
