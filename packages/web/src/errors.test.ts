// Errors by meaning: the API's code becomes a sentence; the detail stays for a report.
import { NameregError, PreparedTransactionRejected } from "@namereg/client";
import { describe, expect, it } from "vitest";
import { AnnounceRefused, explain, withoutRetryAdvice } from "./errors.ts";
import { WalletError } from "./wallet/wallet.ts";

describe("explain", () => {
  it("says why a claim announcement was not signed, and what the claim fee is now when it changed", () => {
    expect(explain(new AnnounceRefused("fee_mismatch", "pays 1 of C… to G…"))).toEqual({
      code: "announce_refused",
      sentence: "Not signed: The fee it pays is not the claim fee the chain asks for now.",
      detail: "pays 1 of C… to G…",
    });
    expect(explain(new AnnounceRefused("chain_unavailable", "getNetwork failed")).sentence).toBe(
      "Not signed: The public RPC could not be reached to check it. Try again shortly.",
    );
    expect(
      explain(new NameregError(409, { error: "claim_fee_changed", quote: { amount: "600000000" } })),
    ).toEqual({
      code: "claim_fee_changed",
      sentence:
        "The claim fee changed since you reviewed it, so nothing was signed. Review the fee again and announce with the new one.",
      detail: "The fee is now 60 XLM.",
    });
  });

  it("says what the spec's codes mean instead of the status", () => {
    expect(explain(new NameregError(404, { error: "name_expired", detail: "old.acme expired" }))).toEqual({
      code: "name_expired",
      sentence: "This name has expired; its records no longer resolve.",
      detail: "old.acme expired",
    });
    expect(explain(new NameregError(409, { error: "no_resolver" })).sentence).toBe(
      "This namespace has no resolver, so its names carry no records.",
    );
    expect(explain(new NameregError(404, { error: "name_not_found" })).sentence).toBe(
      "There is no such name.",
    );
    expect(explain(new NameregError(502, { error: "node_lookup_failed" })).sentence).toBe(
      "The name's records could not be read from the chain right now. Try again shortly.",
    );
  });

  it("does not tell a reclaimed name (gone.acme, whose history lists issued and reclaimed) it was never issued", () => {
    const sentence = explain(new NameregError(404, { error: "name_not_issued", name: "gone.acme" })).sentence;
    expect(sentence).toBe("This name is not issued now: it was never issued, or it was reclaimed.");
    expect(sentence).not.toMatch(/no history/);
  });

  it("names an unlisted code rather than hiding it, and explains a fault in the page", () => {
    expect(explain(new NameregError(409, { error: "namespace_changed" })).sentence).toBe(
      "The service refused the request (namespace_changed).",
    );
    // An answer that is not the API's body (a proxy's error page) is neither a refusal nor a code to show.
    expect(explain(new NameregError(502, { error: "unknown_error", detail: "HTTP 502: <html>" }))).toEqual({
      code: "unknown_error",
      sentence: "The service is not answering properly right now. Try again shortly.",
      detail: "HTTP 502: <html>",
    });
    expect(explain(new NameregError(200, { error: "unknown_error", detail: "HTTP 200" })).sentence).toBe(
      "The service sent an answer the page could not read.",
    );
    expect(explain(new TypeError("x is undefined"))).toEqual({
      code: "unknown_error",
      sentence: "Something went wrong in the page.",
      detail: "x is undefined",
    });
  });

  it("says why the page refused to sign what the service prepared", () => {
    const refused = explain(
      new PreparedTransactionRejected("function_mismatch", "it calls burn, not create_subname"),
    );
    expect(refused).toEqual({
      code: "prepared_transaction_rejected",
      sentence: "Not signed: It calls another function than the one asked for.",
      detail: "it calls burn, not create_subname",
    });
  });

  it("says why the network refused a transaction: the contract's reason when known, else the result code", () => {
    const taken = new NameregError(409, {
      error: "transaction_failed",
      txHash: "ab".repeat(32),
      resultCode: "txFailed",
      contractError: 4,
      code: "name_taken",
    });
    expect(explain(taken).sentence).toBe("The network refused the transaction: That name is already taken.");
    const badAuth = new NameregError(409, {
      error: "transaction_failed",
      resultCode: "txBadAuth",
      code: null,
    });
    expect(explain(badAuth).sentence).toBe(
      "The network refused the transaction: it was not signed by the account that must sign it.",
    );
    const other = new NameregError(409, { error: "transaction_failed", resultCode: "txBadSeq", code: null });
    expect(explain(other).sentence).toBe("The network refused the transaction (txBadSeq).");
  });

  it("keeps the wallet's own words when it refuses", () => {
    expect(explain(new WalletError("User declined access"))).toEqual({
      code: "wallet_refused",
      sentence: "The wallet refused or could not answer.",
      detail: "User declined access",
    });
  });
});

describe("withoutRetryAdvice", () => {
  it("keeps what happened and drops the advice to try again, for a read the page retries by itself", () => {
    const said = (error: unknown) => withoutRetryAdvice(explain(error).sentence);
    expect(said(new NameregError(0, { error: "network_error" }))).toBe("The service could not be reached.");
    expect(said(new NameregError(503, { error: "database_unavailable" }))).toBe(
      "The service's database cannot be reached right now.",
    );
    expect(said(new NameregError(429, { error: "rate_limited" }))).toBe(
      "Too many requests from this address.",
    );
    expect(said(new NameregError(500, { error: "internal_error" }))).toBe("The service failed to answer.");
    expect(said(new NameregError(502, { error: "unknown_error" }))).toBe(
      "The service is not answering properly right now.",
    );
    // A sentence with no such advice stays whole.
    expect(withoutRetryAdvice("There is no such name.")).toBe("There is no such name.");
  });
});
