import { describe, expect, it } from "vitest";
import { CONTRACT_ERROR_CODES, contractErrorNumber, ERROR_STATUS, isErrorCode, statusOf } from "./errors.ts";

describe("error catalogue", () => {
  it("maps every code of the catalogue to its status", () => {
    const spec: Record<string, number> = {
      invalid_account: 400,
      bad_address: 400,
      invalid_node: 400,
      unsupported_network: 400,
      invalid_chain_address: 400,
      wallet_session_required: 400,
      claim_fee_quote_required: 400,
      not_namespace_owner: 403,
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
      chain_disabled: 409,
      multichain_unsupported: 409,
      namespace_changed: 409,
      contract_holder_requires_adapter: 409,
      contract_owner_requires_adapter: 409,
      claim_fee_changed: 409,
      no_credit: 409,
      internal_error: 500,
      node_lookup_failed: 502,
      chain_unavailable: 503,
      rate_limited: 429,
    };
    for (const [code, status] of Object.entries(spec)) {
      expect(isErrorCode(code), code).toBe(true);
      if (isErrorCode(code)) expect(statusOf(code), code).toBe(status);
    }
    expect(isErrorCode("made_up")).toBe(false);
    expect(Object.keys(ERROR_STATUS).length).toBeGreaterThanOrEqual(Object.keys(spec).length);
  });

  it("maps contract error numbers to HTTP codes where docs/contracts.md names one", () => {
    expect(CONTRACT_ERROR_CODES[6]).toBe("subname_generation_mismatch");
    expect(CONTRACT_ERROR_CODES[9]).toBe("chain_disabled");
    expect(CONTRACT_ERROR_CODES[1]).toBeNull();
    expect(contractErrorNumber("HostError: Error(Contract, #12)\n\nEvent log:")).toBe(12);
    expect(contractErrorNumber("HostError: Error(Auth, InvalidAction)")).toBeNull();
  });
});
