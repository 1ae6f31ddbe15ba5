// What the resolution routes accept in their paths and queries: name segments (lower-cased, then validated),
// Stellar addresses, and the history route's page parameters with its opaque cursor.
import { hash } from "node:crypto";
import { isStellarAddress, namespaceNode } from "@namereg/protocol";
import { z } from "zod";
import { ApiError } from "../../errors.ts";
import { intParam, once } from "../../query-params.ts";
import { ADDRESS_RULE, labelSegment } from "../path-params.ts";

export { ADDRESS_RULE };

export interface NameRef {
  readonly namespace: string;
  readonly label: string;
  /** `label.namespace` */
  readonly name: string;
  readonly node: string;
}

// A name's node costs three SHA-256; the hot path sees the same few namespaces over and over, so their nodes
// are remembered (bounded: namespace labels in requests are not trusted to be few). The protocol's pure-JS
// hashing took 11 µs a name, a tenth of a cached resolve's whole budget; node:crypto's one-shot hash computes
// the same formula (docs/contracts.md "Names and nodes"), node = sha256(node(namespace) ‖ sha256(label)), in under 2 µs.
const namespaceNodes = new Map<string, Buffer>();
const MAX_NAMESPACE_NODES = 1_000;

/**
 * Segments are lower-cased (ASCII only) before validation, so `/v1/resolve/ACME/Alice` is `alice.acme`; names
 * are lower-case on chain, so this adds no second spelling of any name. Anything else invalid is 400
 * `invalid_name` naming the segment: the rule of every name segment (`routes/path-params.ts`), checked here
 * rather than by the schema so the resolve hot path runs it once.
 */
export function nameRef(params: { namespace: string; label: string }): NameRef {
  const named = nameOf(params);
  return { ...named, node: nodeOf(named) };
}

/** The validated, lower-cased name of the path, without its node (what a cache hit needs). */
export function nameOf(params: { namespace: string; label: string }): Omit<NameRef, "node"> {
  const namespace = labelSegment("namespace", params.namespace);
  const label = labelSegment("label", params.label);
  return { namespace, label, name: `${label}.${namespace}` };
}

export function nodeOf({ namespace, label }: { namespace: string; label: string }): string {
  let parent = namespaceNodes.get(namespace);
  if (parent === undefined) {
    parent = Buffer.from(namespaceNode(namespace), "hex");
    if (namespaceNodes.size < MAX_NAMESPACE_NODES) namespaceNodes.set(namespace, parent);
  }
  const labelhash = hash("sha256", label, "buffer");
  return hash("sha256", Buffer.concat([parent, labelhash]), "hex");
}

/** A G… account or C… contract: both can hold names (docs/contracts.md "Types and encoding": `Address`). */
export function holderAddress(raw: string): string {
  if (!isStellarAddress(raw)) throw new ApiError("bad_address", { detail: ADDRESS_RULE });
  return raw;
}

export const MAX_HISTORY_LIMIT = 100;
export const HistoryQuery = z.strictObject({
  limit: intParam(1, MAX_HISTORY_LIMIT, MAX_HISTORY_LIMIT),
  cursor: once().optional(),
});

// A cursor continues below an event id (an RPC event id: the TOID and the event's index, both zero-padded), for the
// name it was issued for only. Version 1 held a row id (insertion order); its pages could put a back-filled event
// first, and it is refused as malformed.
const CursorPayload = z.strictObject({
  v: z.literal(2),
  before: z.string().regex(/^\d{19}-\d{10}$/),
  n: z.string().regex(/^[0-9a-f]{16}$/),
});

export function encodeHistoryCursor(before: string, node: string): string {
  return Buffer.from(JSON.stringify({ v: 2, before, n: node.slice(0, 16) })).toString("base64url");
}

/** The event id a cursor continues below; 400 `invalid_request` when it is malformed or for another name. */
export function historyCursor(cursor: string, node: string): string {
  const malformed = () =>
    new ApiError("invalid_request", {
      detail: "cursor: is malformed; use a nextCursor from this endpoint unchanged",
    });
  // Node's base64url decoder skips characters outside the alphabet; reject them instead of guessing.
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(cursor)) throw malformed();
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw malformed();
  }
  const parsed = CursorPayload.safeParse(json);
  if (!parsed.success) throw malformed();
  if (parsed.data.n !== node.slice(0, 16)) {
    throw new ApiError("invalid_request", { detail: "cursor: belongs to another name's history" });
  }
  return parsed.data.before;
}
