// The error-code catalogue of the API (every code docs/api.md names): one table from code to HTTP status, used by the server's error mapper.
// Codes the spec lists without a status (the three subname-creation errors) get the status a client expects:
// 409 for a conflict with current chain state. `name_taken` on creation is likewise a conflict.

export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_account: 400,
  bad_address: 400,
  invalid_node: 400,
  invalid_name: 400,
  unsupported_network: 400,
  invalid_chain_address: 400,
  wallet_session_required: 400,
  claim_fee_quote_required: 400,
  unauthorized: 401,
  not_namespace_owner: 403,
  not_found: 404,
  name_not_found: 404,
  name_expired: 404,
  name_not_issued: 404,
  namespace_not_found: 404,
  no_name: 404,
  parent_inactive: 404,
  no_resolver: 409,
  market_disabled: 409,
  listing_not_active: 409,
  intent_conflict: 409,
  subname_generation_mismatch: 409,
  subnames_unsupported: 409,
  subname_creation_disabled: 409,
  subnames_suspended: 409,
  name_taken: 409,
  chain_disabled: 409,
  multichain_unsupported: 409,
  namespace_changed: 409,
  contract_holder_requires_adapter: 409,
  contract_owner_requires_adapter: 409,
  claim_fee_changed: 409,
  no_credit: 409,
  rate_limited: 429,
  internal_error: 500,
  node_lookup_failed: 502,
  chain_unavailable: 503,
  // Not in the spec's error list (it leaves this open): the allocator has no fee policy, or one in a token other than
  // the native asset, so no honest quote exists; documented in docs/api.md.
  claim_fee_unavailable: 503,
  // Not in the spec's error list either: the account that must pay (a claim fee) lacks the XLM; the native token's own error #10,
  // which must not surface as the naming contracts' #10 (invalid_chain_address).
  insufficient_balance: 409,
  // Not in the spec's error list: a console listing for a namespace that already has an open listing (docs/market.md).
  listing_exists: 409,
  // Not in the spec's error list: the owner's billing view while billing is off (docs/billing.md).
  billing_disabled: 409,
  // Not in the spec's error list: a submit relay was handed a transaction of a kind this service does not prepare (docs/api.md).
  transaction_not_allowed: 400,
  // Not in the spec's error list: hosted webhooks (docs/webhooks.md). A target URL refused at registration (form,
  // scheme, or an address inside the service's network), with a detail saying which.
  invalid_webhook_url: 400,
  // Not in the spec's error list: no such webhook endpoint, or delivery of it, in the session's namespace.
  webhook_not_found: 404,
  delivery_not_found: 404,
  // Not in the spec's error list: the namespace already has WEBHOOK_MAX_ENDPOINTS endpoints.
  webhook_limit_reached: 409,
  // Not in the spec's error list: the buyer's accept_transfer would fail — no live namespace-transfer proposal to
  // that account on the registry (docs/api.md "Marketplace").
  no_transfer_proposal: 409,
  // Not in the spec's error list: a deposit payment or a seller's proposal needs the buyer's unexpired intent on the
  // listing, and there is none (docs/api.md "Marketplace").
  intent_required: 409,
  // Not in the spec's error list: a claim withdrawal signed by an account other than the claim's claimant (docs/api.md "Claim fee").
  not_claimant: 403,
  // Not in the spec's error list: a claim that is no longer announced or objected cannot be withdrawn (docs/api.md "Claim fee").
  claim_not_open: 409,
  // Not in the spec's error list: a display name needs a pay-to address in the namespace's resolver, and the name
  // has none (docs/api.md "Prepare and submit").
  no_payment_address: 409,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, code);
}

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

/** Contract error numbers of docs/contracts.md "Errors". */
export const CONTRACT_ERRORS = {
  NOT_AUTHORISED: 1,
  NAMESPACE_NOT_FOUND: 2,
  NAME_NOT_FOUND: 3,
  NAME_TAKEN: 4,
  PARENT_INACTIVE: 5,
  GENERATION_MISMATCH: 6,
  SUBNAME_CREATION_DISABLED: 7,
  SUBNAMES_SUSPENDED: 8,
  NETWORK_NOT_ENABLED: 9,
  INVALID_CHAIN_ADDRESS: 10,
  FEE_CHANGED: 11,
  NO_CREDIT: 12,
  CLAIM_STATE: 13,
  WINDOW_NOT_ELAPSED: 14,
  INVALID_LABEL: 15,
  LOCKED: 16,
} as const;

/** The HTTP code docs/contracts.md "Errors" names for a contract error, or null where it names none. */
export const CONTRACT_ERROR_CODES: Readonly<Record<number, ErrorCode | null>> = Object.freeze({
  1: null,
  2: "namespace_not_found",
  3: "name_not_found",
  4: "name_taken",
  5: "parent_inactive",
  6: "subname_generation_mismatch",
  7: "subname_creation_disabled",
  8: "subnames_suspended",
  9: "chain_disabled",
  10: "invalid_chain_address",
  11: "claim_fee_changed",
  12: "no_credit",
  13: null,
  14: null,
  15: null,
  16: null,
});

/** Extracts `n` from a host error text such as `HostError: Error(Contract, #4)`. */
export function contractErrorNumber(text: string): number | null {
  const m = /Error\(Contract, #(\d+)\)/.exec(text);
  return m?.[1] === undefined ? null : Number(m[1]);
}
