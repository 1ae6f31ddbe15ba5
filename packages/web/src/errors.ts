// Errors by meaning: the spec's error codes (docs/api.md "Errors") as sentences a person can act on, instead of
// "answered 404". The detail the API sent is kept as a second line for whoever reports a problem. Signing adds the
// wallet's refusals (WalletError), the client's refusal of a prepared transaction (by its reason) and a failed
// transaction (by the contract error it carries), and the page's refusal of a claim announcement that the chain
// does not bear out (AnnounceRefused, verifyAnnounce's reasons).
import { isNameregError, type NameregError } from "@namereg/client";
import { fromBaseUnits } from "./format.ts";
import { WalletError } from "./wallet/wallet.ts";

const SENTENCES: Readonly<Record<string, string>> = {
  name_not_found: "There is no such name.",
  // Also the answer for a name that was issued and then reclaimed (docs/api.md "Errors"): its history shows both.
  name_not_issued: "This name is not issued now: it was never issued, or it was reclaimed.",
  name_expired: "This name has expired; its records no longer resolve.",
  namespace_not_found: "There is no such namespace.",
  no_resolver: "This namespace has no resolver, so its names carry no records.",
  no_name: "This account has no primary name.",
  invalid_name:
    "That is not a valid name. A name reads label.namespace (e.g. alice.acme), a namespace is one label.",
  invalid_node: "That is not a valid namespace node.",
  bad_address: "That is not a Stellar account address (G…, 56 characters).",
  invalid_account: "That is not a Stellar account address (G…, 56 characters).",
  market_disabled: "The marketplace is off on this service.",
  billing_disabled: "Billing is off on this service.",
  chain_disabled: "Network addresses are off on this service.",
  claim_fee_unavailable: "The claim fee cannot be read from the chain right now. Try again shortly.",
  chain_unavailable: "The chain cannot be reached right now. Try again shortly.",
  database_unavailable: "The service's database cannot be reached right now. Try again shortly.",
  rate_limited: "Too many requests from this address. Wait a moment and try again.",
  subnames_unsupported: "This namespace does not support subnames.",
  subnames_suspended: "Subnames of this name are suspended.",
  subname_creation_disabled: "This namespace does not allow new subnames.",
  parent_inactive: "The parent name is not active, so its subnames are not either.",
  listing_not_active: "This listing is no longer active.",
  listing_exists: "This namespace is already listed.",
  // The buyer's steps (actions/buyer-panel.tsx) and the seller's (actions/owner-sale.tsx) share these.
  intent_required:
    "No current intent on this listing for that account: the buyer starts buying first (the intent gives the deposit its memo, and only a buyer with one can be offered the namespace).",
  intent_conflict: "Another request for your intent was answered at the same moment. Try again.",
  no_transfer_proposal:
    "The registry holds no live transfer proposal of this namespace: it was never made (to this account), it lapsed, or it was withdrawn.",
  not_namespace_owner: "Only the namespace's owner can do this.",
  unauthorized: "Sign in with your wallet first.",
  wallet_session_required: "Sign in with your wallet first.",
  insufficient_balance: "The account does not hold enough XLM for this.",
  name_taken: "That name is already taken.",
  not_found: "There is nothing at this address.",
  node_lookup_failed: "The name's records could not be read from the chain right now. Try again shortly.",
  multichain_unsupported: "This namespace's resolver does not keep addresses on other networks.",
  invalid_request: "The service could not read that request; the details below say what is wrong.",
  network_error: "The service could not be reached. Check the connection and try again.",
  internal_error:
    "The service failed to answer. Try again; if it persists, report it with the details below.",
  // Preparing, signing and submitting (actions/).
  subname_generation_mismatch: "The subname changed on chain since it was read. Try again.",
  invalid_chain_address: "That is not a valid address on that network.",
  unsupported_network: "That network is not supported.",
  contract_holder_requires_adapter: "This name is held by a contract, which cannot sign here.",
  // Hosted webhooks (pages/webhooks.tsx); the detail says why a URL was refused.
  invalid_webhook_url: "The service does not send to that URL; the details below say why.",
  webhook_not_found: "That endpoint no longer exists: it was deleted.",
  delivery_not_found: "That delivery no longer exists.",
  webhook_limit_reached: "This namespace has as many endpoints as the service allows: delete one first.",
  transaction_not_allowed: "The service does not relay that kind of transaction.",
  // Announcing a claim (actions/announce.ts).
  claim_fee_changed:
    "The claim fee changed since you reviewed it, so nothing was signed. Review the fee again and announce with the new one.",
  claim_fee_quote_required: "The fee you agreed to was not sent. Review the fee and announce again.",
};

/**
 * The page refused to sign a claim announcement: verifyAnnounce found it does not match what the person reviewed
 * or what the chain's policy says. `reason` is verifyAnnounce's (AnnounceRejection); `detail` its own words.
 */
export class AnnounceRefused extends Error {
  readonly reason: string;
  readonly detail: string;
  constructor(reason: string, detail: string) {
    super(`announcement refused (${reason}): ${detail}`);
    this.name = "AnnounceRefused";
    this.reason = reason;
    this.detail = detail;
  }
}

/** verifyAnnounce's reasons (packages/client/src/verify-announce.ts) as what it means for the person. */
const ANNOUNCE_REFUSALS: Readonly<Record<string, string>> = {
  malformed_transaction: "The service sent something that is not one plain contract call.",
  network_mismatch: "The public RPC serves another network than your wallet's.",
  not_allocator: "It calls another contract than the claim allocator.",
  not_announce: "It does something else than announce a claim.",
  claimant_mismatch: "It would announce for another account than yours.",
  label_mismatch: "It claims another namespace than the one you reviewed.",
  basis_mismatch: "Its basis is not the one you gave.",
  evidence_mismatch: "Its evidence is not the evidence you gave.",
  fee_policy_unconfigured: "The claim allocator has no claim fee set on the chain, so no fee can be right.",
  fee_token_not_native: "The chain's claim fee is not in XLM.",
  fee_mismatch: "The fee it pays is not the claim fee the chain asks for now.",
  unexpected_authorization: "It would let more be taken from your account than the claim fee.",
  network_fee_too_high: "Its network fee is above 1 XLM.",
  chain_unavailable: "The public RPC could not be reached to check it. Try again shortly.",
};

/** Why the page refused to sign what the service prepared (the client's verifyPrepared reasons). */
const REJECTIONS: Readonly<Record<string, string>> = {
  network_mismatch: "It was prepared for another network than the wallet's.",
  source_mismatch: "It would act for another account than the signed-in one.",
  contract_mismatch: "It calls another contract than the one asked for.",
  function_mismatch: "It calls another function than the one asked for.",
  arguments_mismatch: "Its arguments are not the ones asked for.",
  unexpected_operations: "It holds more than the one call asked for.",
  unexpected_authorization: "It asks for an authorisation beyond the call asked for.",
  fee_too_high: "Its fee is above 1 XLM.",
  validity_too_long: "It would stay valid for too long.",
  invalid_challenge: "The sign-in challenge is not a harmless SEP-10 challenge for this account.",
};

/** A failed transaction in words: the contract's reason when the chain told it, else the network's result code. */
function failedTransaction(error: NameregError): string {
  const code = error.field("code");
  const reason = typeof code === "string" ? SENTENCES[code] : undefined;
  if (reason !== undefined) return `The network refused the transaction: ${reason}`;
  if (error.field("resultCode") === "txBadAuth")
    return "The network refused the transaction: it was not signed by the account that must sign it.";
  return `The network refused the transaction (${String(error.field("resultCode") ?? "failed")}).`;
}

export interface Explained {
  readonly code: string;
  readonly sentence: string;
  readonly detail: string | undefined;
}

/** What went wrong, in words, for any error a call can throw. */
export function explain(error: unknown): Explained {
  if (error instanceof AnnounceRefused) {
    const why = ANNOUNCE_REFUSALS[error.reason] ?? "It does not do what you reviewed.";
    return { code: "announce_refused", sentence: `Not signed: ${why}`, detail: error.detail };
  }
  if (isNameregError(error, "prepared_transaction_rejected")) {
    const why = REJECTIONS[error.reason] ?? "It does not do what was asked.";
    return { code: error.code, sentence: `Not signed: ${why}`, detail: error.detail };
  }
  if (isNameregError(error, "claim_fee_changed")) {
    // The 409 carries the current quote: say what the fee is now, the reason the person must review again.
    const quote = error.field("quote") as { amount?: unknown } | undefined;
    const now =
      typeof quote?.amount === "string" ? `The fee is now ${fromBaseUnits(quote.amount, 7)} XLM.` : undefined;
    return {
      code: error.code,
      sentence: SENTENCES.claim_fee_changed ?? error.code,
      detail: now ?? error.detail,
    };
  }
  if (isNameregError(error, "transaction_failed"))
    return { code: error.code, sentence: failedTransaction(error), detail: error.detail };
  if (isNameregError(error, "unknown_error"))
    // An answer that is not the API's own body (a proxy's "502 Bad Gateway" page while the service is down): not
    // a refusal, and its code is the client's, not the service's; the status and what came stay in the detail.
    return {
      code: error.code,
      sentence:
        error.status >= 500
          ? "The service is not answering properly right now. Try again shortly."
          : "The service sent an answer the page could not read.",
      detail: error.detail,
    };
  if (isNameregError(error)) {
    const sentence = SENTENCES[error.code] ?? `The service refused the request (${error.code}).`;
    return { code: error.code, sentence, detail: error.detail };
  }
  if (error instanceof WalletError)
    return {
      code: "wallet_refused",
      sentence: "The wallet refused or could not answer.",
      detail: error.message,
    };
  const detail = error instanceof Error ? error.message : String(error);
  return { code: "unknown_error", sentence: "Something went wrong in the page.", detail };
}

/**
 * What happened, without the sentence's advice to try again ("The service could not be reached."): said of a read
 * the page keeps trying by itself (ui.tsx StaleNote, live/query.ts RETRY_FAILED_MS), where "Check the connection
 * and try again" would send the person to do what the page already does.
 */
export function withoutRetryAdvice(sentence: string): string {
  return sentence.replace(
    /\s*(?:Check the connection and try again|Wait a moment and try again|Try again)\b.*$/,
    "",
  );
}
