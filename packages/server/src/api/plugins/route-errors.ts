// The error codes each route can answer, by "METHOD /path", for the OpenAPI document. The codes come from the
// spec's per-route tables and from what the route's handlers, guard and chain calls raise; every answer may also be
// `rate_limited` or `internal_error` (added to all). A route missing here fails the OpenAPI test, so a new route
// cannot ship without its errors documented.
import type { ApiErrorCode } from "../errors.ts";

type Codes = readonly ApiErrorCode[];

/** Codes every route can answer. */
export const COMMON_ERRORS: Codes = ["rate_limited", "internal_error", "database_unavailable"];

/** What any route with a JSON body can answer before its handler (the body limit, the content type). */
export const BODY_ERRORS: Codes = ["payload_too_large", "unsupported_media_type"];

/** What the console guard answers before any console route runs (auth/console-guard.ts). */
const CONSOLE: Codes = [
  "invalid_request",
  "invalid_name",
  "wallet_session_required",
  "unauthorized",
  "not_namespace_owner",
  "namespace_not_found",
  "namespace_changed",
  "contract_owner_requires_adapter",
  "chain_unavailable",
];

/** Prepare routes build and simulate a transaction (chain/prepare.ts). */
const PREPARE: Codes = ["invalid_request", "invalid_account", "insufficient_balance", "chain_unavailable"];
const SUBMIT: Codes = [
  "invalid_request",
  "chain_unavailable",
  "transaction_not_allowed",
  "payload_too_large",
];
const MARKET: Codes = ["market_disabled"];

export const ROUTE_ERRORS: Readonly<Record<string, Codes>> = {
  "GET /health": [],
  "GET /v1/status": [],
  "GET /v1/stats": [],
  "GET /v1/ledger/head": ["chain_unavailable"],
  "GET /v1/events": ["invalid_request", "invalid_node"],
  "GET /v1/coverage": ["invalid_request"],
  "GET /auth": ["invalid_request", "invalid_account", "chain_unavailable"],
  "POST /auth": ["invalid_request", "unauthorized", "chain_unavailable"],
  "POST /auth/logout": ["invalid_request", "unauthorized"],

  "POST /console/subname-policy/prepare": [...CONSOLE, ...PREPARE, "subnames_unsupported"],
  "POST /console/chain-policy/prepare": [...CONSOLE, ...PREPARE, "no_resolver", "unsupported_network"],
  "PUT /console/namespace-profile": [...CONSOLE],
  "POST /console/tx/submit": [...CONSOLE, ...SUBMIT],
  "POST /console/register/announce/prepare": [
    ...CONSOLE,
    ...PREPARE,
    "claim_fee_quote_required",
    "claim_fee_changed",
    "claim_fee_unavailable",
  ],
  "POST /console/market/listings": [
    ...CONSOLE,
    ...MARKET,
    "listing_exists",
    "name_not_found",
    "invalid_node",
  ],
  "POST /console/market/listings/:id/cancel": [...CONSOLE, ...MARKET, "not_found", "listing_not_active"],
  "GET /console/billing": [...CONSOLE, "billing_disabled"],

  "GET /v1/subnames/:namespace/:label": [
    "invalid_name",
    "name_not_found",
    "name_expired",
    "namespace_not_found",
  ],
  "GET /v1/subnames/:namespace/:label/:child": [
    "invalid_name",
    "name_not_found",
    "name_expired",
    "namespace_not_found",
  ],
  "POST /subnames/prepare": [
    ...PREPARE,
    "invalid_name",
    "name_not_found",
    "name_expired",
    "namespace_not_found",
    "subname_generation_mismatch",
    "subnames_unsupported",
    "subname_creation_disabled",
    "subnames_suspended",
    "name_taken",
    "parent_inactive",
    "contract_holder_requires_adapter",
  ],
  "GET /v1/chain-address/:namespace/:name/:network": [
    "invalid_name",
    "unsupported_network",
    "name_not_found",
    "name_expired",
    "no_resolver",
    "chain_disabled",
    "multichain_unsupported",
    "chain_unavailable",
  ],
  "GET /v1/chain-policy/:namespace": [
    "invalid_name",
    "namespace_not_found",
    "no_resolver",
    "multichain_unsupported",
    "chain_unavailable",
  ],
  "POST /records/prepare": [
    ...PREPARE,
    "invalid_name",
    "invalid_chain_address",
    "unsupported_network",
    "name_not_found",
    "name_expired",
    "no_resolver",
    "chain_disabled",
    "multichain_unsupported",
    "contract_holder_requires_adapter",
  ],
  "POST /records/submit": [...SUBMIT],

  "GET /v1/resolve/:namespace/:label": ["invalid_name", "name_not_found", "name_expired"],
  "GET /v1/names/:namespace/:label": ["invalid_name", "name_not_found", "namespace_not_found"],
  "GET /v1/records/:namespace/:label": [
    "invalid_name",
    "name_not_found",
    "name_expired",
    "no_resolver",
    "chain_unavailable",
  ],
  "GET /v1/reverse/:address": ["bad_address", "no_name", "chain_unavailable"],
  "GET /v1/names/by-holder/:address": ["bad_address", "invalid_request"],
  "GET /v1/names/:namespace/:label/history": ["invalid_name", "invalid_request", "name_not_issued"],

  "GET /v1/namespaces": ["invalid_request"],
  "GET /v1/namespaces/:namespace": ["invalid_name", "namespace_not_found"],
  "GET /v1/lookup": ["invalid_request", "invalid_name"],
  "GET /v1/subname-policy/:namespace": ["invalid_name", "namespace_not_found"],
  "GET /v1/showcase": ["invalid_request"],

  "GET /v1/directory/namespaces": ["invalid_request"],
  "GET /v1/directory/reverse/:address": ["invalid_account", "invalid_request"],

  "GET /federation": ["invalid_request", "not_found"],
  "GET /.well-known/stellar.toml": [],

  "GET /v1/allocations": ["invalid_request"],
  "GET /v1/claim-fee": ["chain_unavailable", "claim_fee_unavailable"],
  "GET /v1/claim-fee/:label": ["invalid_name", "chain_unavailable", "claim_fee_unavailable"],
  "GET /v1/claim-fee/credit/:address": ["bad_address", "invalid_account", "chain_unavailable"],
  "POST /v1/claim-fee/credit/:address/prepare": [...PREPARE, "bad_address", "no_credit"],

  "GET /v1/market/listings": [...MARKET, "invalid_request"],
  "POST /v1/market/listings/:id/intent": [
    ...MARKET,
    "invalid_request",
    "invalid_account",
    "not_found",
    "listing_not_active",
    "intent_conflict",
    "chain_unavailable",
  ],
  "GET /v1/market/history/:node": [...MARKET, "invalid_node", "invalid_request"],
};
