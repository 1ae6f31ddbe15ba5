// The page's addresses and where the lookup box sends a query typed in full.
import { describe, expect, it } from "vitest";
import { accountIn, href, LOOKUP_MAX, lookupRefusal, lookupTarget, parseRoute } from "./routes.ts";

describe("parseRoute", () => {
  it("reads every page's address, and the old page's #/ links the same way", () => {
    expect(parseRoute("/")).toEqual({ page: "status" });
    expect(parseRoute("/name/Alice.ACME")).toEqual({ page: "name", name: "alice.acme" });
    expect(parseRoute("/name/pay.alice.acme")).toEqual({ page: "name", name: "pay.alice.acme" });
    expect(parseRoute("/namespace/acme")).toEqual({ page: "namespace", namespace: "acme" });
    expect(parseRoute("/namespace/ACME/webhooks")).toEqual({ page: "webhooks", namespace: "acme" });
    expect(parseRoute("/namespace/acme/other")).toEqual({ page: "missing", path: "/namespace/acme/other" });
    expect(parseRoute("/account/gabc")).toEqual({ page: "account", address: "GABC" });
    expect(parseRoute("/claims")).toEqual({ page: "claims" });
    expect(parseRoute("/market")).toEqual({ page: "market" });
    expect(parseRoute("/market/forsale")).toEqual({ page: "listing", namespace: "forsale" });
    expect(parseRoute(`/tx/${"AB".repeat(32)}`)).toEqual({ page: "tx", hash: "ab".repeat(32) });
    expect(parseRoute("/tx")).toEqual({ page: "missing", path: "/tx" });
    expect(parseRoute("/", "#/name/alice.acme")).toEqual({ page: "name", name: "alice.acme" });
    expect(parseRoute("/name/a/b")).toEqual({ page: "missing", path: "/name/a/b" });
    expect(parseRoute("/name/a..b")).toEqual({ page: "name", name: "a..b" });
  });

  it("round-trips what href builds", () => {
    expect(parseRoute(href.name("alice.acme"))).toEqual({ page: "name", name: "alice.acme" });
    expect(parseRoute(href.listing("forsale"))).toEqual({ page: "listing", namespace: "forsale" });
    expect(parseRoute(href.tx("0f".repeat(32)))).toEqual({ page: "tx", hash: "0f".repeat(32) });
    expect(parseRoute(href.webhooks("acme"))).toEqual({ page: "webhooks", namespace: "acme" });
    expect(href.claim("12")).toBe("/claims#claim-12");
  });
});

describe("lookupTarget", () => {
  it("sends a name to its page, a lone label to its namespace and an account to its page", () => {
    expect(lookupTarget(" Alice.Acme ")).toBe("/name/alice.acme");
    expect(lookupTarget("acme")).toBe("/namespace/acme");
    const account = `G${"A".repeat(55)}`;
    expect(lookupTarget(account.toLowerCase())).toBe(`/account/${account}`);
    expect(lookupTarget("   ")).toBeNull();
  });
});

describe("accountIn", () => {
  it("finds a whole account address typed in any case, and nothing else", () => {
    const account = `G${"A".repeat(54)}7`;
    expect(accountIn(` ${account.toLowerCase()} `)).toBe(account);
    expect(accountIn(account.slice(0, 20))).toBeNull();
    expect(accountIn(`C${"A".repeat(55)}`)).toBeNull();
    expect(accountIn("alice.acme")).toBeNull();
  });
});

describe("lookupRefusal", () => {
  it("says in words that a query beyond the lookup's 64 characters is too long", () => {
    expect(LOOKUP_MAX).toBe(64);
    expect(lookupRefusal("a".repeat(65))).toBe("Search for at most 64 characters.");
  });

  it("lets a query of up to 64 characters (spaces around it aside) be asked", () => {
    expect(lookupRefusal("a".repeat(64))).toBeNull();
    expect(lookupRefusal(`  ${"a".repeat(64)}  `)).toBeNull();
    expect(lookupRefusal("alice.acme")).toBeNull();
  });
});

describe("a contract's address", () => {
  const id = `C${"A".repeat(55)}`;
  it("links a contract to its page and its events as JSON, and reads the page's address back", () => {
    expect(href.contract(id)).toBe(`/contract/${id}`);
    expect(href.contractEvents(id)).toBe(`/v1/events?contractId=${id}`);
    expect(parseRoute(`/contract/${id.toLowerCase()}`)).toEqual({ page: "contract", id });
    expect(parseRoute(`/contract/${id}/more`)).toEqual({ page: "missing", path: `/contract/${id}/more` });
  });
});
