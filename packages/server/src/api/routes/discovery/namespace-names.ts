// What GET /v1/namespaces/{namespace}/names accepts and answers (docs/api.md "GET /v1/namespaces/{namespace}/names"):
// its page parameters and the opaque cursor. Pages are keyset pages by label in byte order, so a page costs the
// same at the first name as at the millionth (the `names_ns_label_pattern_idx` index), and a name issued while a
// reader pages appears in order instead of shifting every later page as an offset would.
import { isValidLabel } from "@namereg/protocol";
import { z } from "zod";
import { ApiError } from "../../errors.ts";
import { intParam, once } from "../../query-params.ts";
import { Timestamp } from "./namespace.ts";

export const MAX_NAMESPACE_NAMES = 100;

export const NamespaceNamesQuery = z.strictObject({
  limit: intParam(1, MAX_NAMESPACE_NAMES, MAX_NAMESPACE_NAMES),
  cursor: once().optional(),
});

export const NamespaceNamesResponse = z.object({
  namespace: z.string(),
  names: z.array(
    z.object({
      name: z.string(),
      label: z.string(),
      holder: z.string(),
      expiresAt: Timestamp.nullable(),
      expired: z.boolean(),
      issuedLedger: z.number().int(),
      issuedAt: Timestamp.nullable(),
      subnames: z.number().int().nonnegative(),
    }),
  ),
  nextCursor: z.string().nullable(),
});

// The last label of the page and the namespace it was issued for.
const CursorPayload = z.strictObject({
  v: z.literal(1),
  after: z.string().refine(isValidLabel),
  ns: z.string().refine(isValidLabel),
});

export function encodeNamesCursor(after: string, namespace: string): string {
  return Buffer.from(JSON.stringify({ v: 1, after, ns: namespace })).toString("base64url");
}

/** The label a cursor continues after; 400 `invalid_request` when it is malformed or for another namespace. */
export function namesCursor(cursor: string, namespace: string): string {
  const malformed = () =>
    new ApiError("invalid_request", {
      detail: "cursor: is malformed; use a nextCursor from this endpoint unchanged",
    });
  // Node's base64url decoder skips characters outside the alphabet; reject them instead of guessing.
  if (!/^[A-Za-z0-9_-]{1,256}$/.test(cursor)) throw malformed();
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw malformed();
  }
  const parsed = CursorPayload.safeParse(json);
  if (!parsed.success) throw malformed();
  if (parsed.data.ns !== namespace) {
    throw new ApiError("invalid_request", { detail: "cursor: belongs to another namespace's names" });
  }
  return parsed.data.after;
}
