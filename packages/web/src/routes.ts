// The page's addresses, one per entity, so every name, namespace, account and listing can be linked and shared.
// The server answers each of these paths with index.html (packages/server/src/api/plugins/web.ts lists the same
// prefixes: keep ROUTE_PREFIXES in step).
export type Route =
  | { readonly page: "status" }
  | { readonly page: "name"; readonly name: string }
  | { readonly page: "namespace"; readonly namespace: string }
  | { readonly page: "webhooks"; readonly namespace: string }
  | { readonly page: "account"; readonly address: string }
  | { readonly page: "claims" }
  | { readonly page: "market" }
  | { readonly page: "listing"; readonly namespace: string }
  | { readonly page: "tx"; readonly hash: string }
  | { readonly page: "contract"; readonly id: string }
  | { readonly page: "missing"; readonly path: string };

export const ROUTE_PREFIXES = [
  "/name/",
  "/namespace/",
  "/account/",
  "/claims",
  "/market",
  "/tx/",
  "/contract/",
] as const;

export const href = {
  status: () => "/",
  name: (name: string) => `/name/${encodeURIComponent(name)}`,
  namespace: (namespace: string) => `/namespace/${encodeURIComponent(namespace)}`,
  /** A namespace owner's hosted webhooks (under /namespace/, so the server already answers it with the app). */
  webhooks: (namespace: string) => `/namespace/${encodeURIComponent(namespace)}/webhooks`,
  account: (address: string) => `/account/${encodeURIComponent(address)}`,
  claims: () => "/claims",
  market: () => "/market",
  listing: (namespace: string) => `/market/${encodeURIComponent(namespace)}`,
  /** A transaction: its events in the archive (GET /v1/events?txHash=). */
  tx: (hash: string) => `/tx/${encodeURIComponent(hash)}`,
  /** A contract: its events in the archive (GET /v1/events?contractId=). */
  contract: (contractId: string) => `/contract/${encodeURIComponent(contractId)}`,
  /** A contract's events as the archive's own answer (JSON). */
  contractEvents: (contractId: string) => `/v1/events?contractId=${encodeURIComponent(contractId)}`,
  /** A claim in the queue, by its id. */
  claim: (id: string) => `/claims#claim-${encodeURIComponent(id)}`,
};

/** The route for a path (`location.pathname`); a `#/name/…` link from the old page is read the same way. */
export function parseRoute(pathname: string, hash = ""): Route {
  const path = hash.startsWith("#/") ? hash.slice(1) : pathname;
  const parts = path
    .split("/")
    .filter((p) => p !== "")
    .map(decodeURIComponent);
  const [first, second, ...rest] = parts;
  if (first === undefined) return { page: "status" };
  if (first === "namespace" && second !== undefined && rest.length === 1 && rest[0] === "webhooks")
    return { page: "webhooks", namespace: second.trim().toLowerCase() };
  if (rest.length === 0) {
    if (first === "claims" && second === undefined) return { page: "claims" };
    if (first === "market" && second === undefined) return { page: "market" };
    if (second !== undefined) {
      const value = second.trim();
      if (first === "name") return { page: "name", name: value.toLowerCase() };
      if (first === "namespace") return { page: "namespace", namespace: value.toLowerCase() };
      if (first === "account") return { page: "account", address: value.toUpperCase() };
      if (first === "market") return { page: "listing", namespace: value.toLowerCase() };
      if (first === "tx") return { page: "tx", hash: value.toLowerCase() };
      if (first === "contract") return { page: "contract", id: value.toUpperCase() };
    }
  }
  return { page: "missing", path };
}

/** The account a query names, in capitals, when it is a whole Stellar account address (G…, 56 characters). */
export function accountIn(query: string): string | null {
  const q = query.trim().toUpperCase();
  return /^G[A-Z2-7]{55}$/.test(q) ? q : null;
}

/** Where the lookup box sends a query typed in full: `alice.acme` to the name, `acme` to the namespace. */
export function lookupTarget(query: string): string | null {
  const q = query.trim().toLowerCase();
  if (q === "") return null;
  const account = accountIn(q);
  if (account !== null) return href.account(account);
  return q.includes(".") ? href.name(q) : href.namespace(q);
}

/** The longest query GET /v1/lookup searches (docs/api.md "GET /v1/lookup"); a longer one is refused with 400. */
export const LOOKUP_MAX = 64;

/** Why a query is not worth asking the lookup, in words, or null when it may be asked. */
export function lookupRefusal(query: string): string | null {
  return query.trim().length > LOOKUP_MAX ? `Search for at most ${LOOKUP_MAX} characters.` : null;
}
