// Which reads a change concerns, from the change's own fields (docs/webhooks.md "The change types") and the cache
// keys the pages use (`<family>:<subject>:…`, e.g. "h:alice.acme", "ns:acme", "held:G…", "listings:0"). A read
// whose key names the change's namespace (or a name in it), its name, its parent or an account it names is read
// again; so are the lists a kind of change belongs to (the market's listings, the claim queue) whatever their key,
// and the service's status, which every change moves.
export interface Change {
  readonly type: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** The page's subject of a live stream: what `/v1/stream` is filtered to. */
export interface Scope {
  readonly namespace?: string;
  readonly types?: readonly string[];
}

/** Fields of a change that name an account (the account pages read by address). */
const ACCOUNT_FIELDS = [
  "holder",
  "address",
  "seller",
  "buyer",
  "claimant",
  "objector",
  "from",
  "to",
] as const;
/** Fields that name a name (a subname's parent, a primary name set or cleared). */
const NAME_FIELDS = ["name", "parent", "primary", "previous"] as const;

/** Lists that show every change of a kind, whatever their subject. */
const FAMILIES: Readonly<Record<string, readonly string[]>> = {
  market: ["listings", "sales", "sale"],
  claim: ["allocations", "credit"],
  billing: ["bill"],
};

/**
 * Reads every change concerns: the service's status shows the ledger the mirror has processed, which a change
 * proves has moved (its `ledger` is processed). Polled reads, asked again within their gap (query.ts `Polling`).
 */
const EVERY_CHANGE = new Set(["status"]);

/**
 * Changes that take a namespace from its owner, and the owner's console reads they must not ask again: the console
 * would refuse the previous owner (403, logged by the browser). The page re-reads the owner from the public routes
 * ("pol", "ns") and stops showing those sections.
 */
const OWNER_CHANGES = new Set(["market.sold", "namespace.transferred"]);
const OWNER_READS = new Set(["bill", "wh"]);

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/** Whether the read cached under `key` may show something `change` changed. */
export function concerns(change: Change, key: string): boolean {
  const [family = "", ...parts] = key.split(":");
  if (OWNER_CHANGES.has(change.type) && OWNER_READS.has(family)) return false;
  if (EVERY_CHANGE.has(family)) return true;
  if (FAMILIES[change.type.split(".")[0] ?? ""]?.includes(family)) return true;
  const namespace = text(change.data.namespace);
  const exact = new Set<string>();
  for (const field of [...NAME_FIELDS, ...ACCOUNT_FIELDS]) {
    const value = text(change.data[field]);
    if (value !== null) exact.add(value);
  }
  return parts.some(
    (part) =>
      exact.has(part) || (namespace !== null && (part === namespace || part.endsWith(`.${namespace}`))),
  );
}
