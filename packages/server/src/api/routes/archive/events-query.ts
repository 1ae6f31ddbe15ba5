// What /v1/events accepts: its query parameters, canonical filter values and the opaque page cursor.
// Filters are canonicalised before they are fingerprinted, so `subject=alice.acme` and the same node in hex are one
// filter set, and a cursor issued for one is valid with the other.
import { createHash } from "node:crypto";
import { isContractId, isStellarAddress, nodeOf } from "@namereg/protocol";
import { z } from "zod";
import { intParam, once } from "../../query-params.ts";
import { LabelSegment, parseFoldedName } from "../path-params.ts";

export const DEFAULT_EVENTS_LIMIT = 100;
export const MAX_EVENTS_LIMIT = 1000;

const U64_MAX = (1n << 64n) - 1n;
const HEX_NODE = /^[0-9a-fA-F]{64}$/;
/** A transaction hash: 64 hex digits, any case (stored lower-case, as the RPC reports it). */
const HEX_TX = HEX_NODE;
const DIGITS = /^[0-9]+$/;
/** What a G… or C… address looks like: 56 characters of the base32 alphabet. */
const ADDRESS_SHAPE = /^[GC][A-Z2-7]{55}$/;

/**
 * The stored subject (protocol's subjectOfEvent) matching `input`: a node or fee key in hex, a G/C address, a
 * claim id, or a name hashed to its node. All-digit input is always a claim id; a namespace whose label is all
 * digits is given by its node.
 */
export function canonicalSubject(input: string): string | null {
  if (HEX_NODE.test(input)) return input.toLowerCase();
  if (DIGITS.test(input)) {
    if (input.length > 20) return null;
    const id = BigInt(input);
    return id <= U64_MAX ? id.toString() : null;
  }
  if (isStellarAddress(input)) return input;
  // Shaped like an address but not one (a checksum typo): refused, not read as a namespace once lower-cased.
  if (ADDRESS_SHAPE.test(input)) return null;
  // The one case rule of names (docs/api.md "Name segments"): A-Z lower-cased, so `Alice.acme` is `alice.acme`.
  const parsed = parseFoldedName(input);
  return parsed === null ? null : nodeOf(parsed);
}

const SUBJECT_FORMS =
  "must be a 64-hex node, a name (namespace, label.namespace or child.label.namespace; A-Z is lower-cased), " +
  "a G… or C… address, or a claim id";

export const EventsQuery = z.strictObject({
  limit: intParam(1, MAX_EVENTS_LIMIT, DEFAULT_EVENTS_LIMIT),
  cursor: once().optional(),
  contractId: once().refine(isContractId, "must be a contract ID (C…)").optional(),
  subject: once()
    .transform((value, ctx) => {
      const subject = canonicalSubject(value);
      if (subject === null) {
        ctx.issues.push({ code: "custom", message: SUBJECT_FORMS, input: value });
        return z.NEVER;
      }
      return subject;
    })
    .optional(),
  // The one rule of name segments (path-params.ts): A-Z lower-cased, then a label; invalid_request here.
  namespace: once().pipe(LabelSegment).optional(),
  // Chosen (docs/api.md "GET /v1/events"): the events of one transaction, so a transaction hash shown anywhere
  // can be followed to what it did.
  txHash: once()
    .regex(HEX_TX, "must be a transaction hash (64 hex digits)")
    .transform((value) => value.toLowerCase())
    .optional(),
});

export interface EventFilters {
  readonly contractId?: string | undefined;
  readonly subject?: string | undefined;
  readonly namespace?: string | undefined;
  readonly txHash?: string | undefined;
}

/**
 * Fixed key order and explicit nulls: the same filter set always hashes the same. `txHash` came later and is
 * appended only when given, so cursors issued before it existed keep their fingerprint.
 */
export function filterFingerprint(filters: EventFilters): string {
  const canonical = JSON.stringify([
    filters.contractId ?? null,
    filters.subject ?? null,
    filters.namespace ?? null,
    ...(filters.txHash === undefined ? [] : [filters.txHash]),
  ]);
  return createHash("sha256").update(canonical).digest("hex").slice(0, 16);
}

// RPC event ids: a zero-padded TOID and an index (`%019d-%010d`); they sort in chain order as text.
const CursorPayload = z.strictObject({
  v: z.literal(1),
  after: z.string().regex(/^[0-9]{1,20}-[0-9]{1,10}$/),
  f: z.string().regex(/^[0-9a-f]{16}$/),
});

export type Cursor = z.infer<typeof CursorPayload>;

export function encodeCursor(after: string, filters: EventFilters): string {
  const payload: Cursor = { v: 1, after, f: filterFingerprint(filters) };
  return Buffer.from(JSON.stringify(payload)).toString("base64url");
}

/** The cursor's content, or null when it is not one this server issued in this format. */
export function decodeCursor(cursor: string): Cursor | null {
  // Node's base64url decoder skips characters outside the alphabet; reject them instead of guessing.
  if (!/^[A-Za-z0-9_-]{1,256}$/.test(cursor)) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const parsed = CursorPayload.safeParse(json);
  return parsed.success ? parsed.data : null;
}
