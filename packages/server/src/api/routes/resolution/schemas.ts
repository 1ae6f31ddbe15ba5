// Wire shapes of the resolution routes (docs/api.md "Resolution, records, reverse, names by holder, history"), and the conversions their values share.
import { z } from "zod";
import { SEGMENT_RULE } from "../path-params.ts";

const Timestamp = z.iso.datetime();
const Ledger = z.number().int().nonnegative();

/**
 * `ownership` and `storage` (docs/api.md "GET /v1/resolve/{namespace}/{label}"; only their example values are specified). `ownership` says what the chain
 * guarantees, never inferring permanence from a missing expiry (docs/api.md "Resolution, records, reverse, names by holder, history"): `permanent` — no expiry and the namespace
 * is locked, so neither a reclaim nor a registrar replacement can take the name back; `revocable` — no expiry, but
 * the namespace owner can still reclaim it; `expiring` — a timed name. Every answer comes from live (current)
 * chain state: `live`.
 */
export const Ownership = z.enum(["permanent", "revocable", "expiring"]);
export const Storage = z.literal("live");

export const ResolveResponse = z.object({
  name: z.string(),
  account: z.string(),
  ownership: Ownership,
  storage: Storage,
  expires_at: Timestamp.nullable(),
  ledger: Ledger,
});

export const NameRecordResponse = z.object({
  name: z.string(),
  namespace: z.string(),
  holder: z.string(),
  ownership: Ownership,
  storage: Storage,
  expiresAt: Timestamp.nullable(),
  resolutions: z.number().int().nonnegative(),
  issuedLedger: Ledger,
  /** Null when the chain time of the issuing ledger is unknown (never replaced by ingestion time). */
  issuedAt: Timestamp.nullable(),
  txHash: z.string(),
  operator: z.string(),
  operatorName: z.string(),
});

export const RecordsResponse = z.object({
  name: z.string(),
  node: z.string().regex(/^[0-9a-f]{64}$/),
  address: z.string().nullable(),
  text: z.record(z.string(), z.string()),
  displayName: z.boolean().nullable(),
  primaryName: z.boolean().nullable(),
});

export const ReverseResponse = z.object({ name: z.string() });

export const ByHolderResponse = z.object({
  holder: z.string(),
  names: z.array(
    z.object({
      name: z.string(),
      namespace: z.string(),
      holder: z.string(),
      issuedAt: Timestamp.nullable(),
      issuedLedger: Ledger,
    }),
  ),
  truncated: z.boolean(),
});

export const HistoryResponse = z.object({
  name: z.string(),
  issuedAt: Timestamp.nullable(),
  issuedLedger: Ledger,
  events: z.array(
    z.object({
      action: z.enum(["issued", "transferred", "reclaimed"]),
      ledger: Ledger,
      txHash: z.string(),
      /** Chain time; null when unknown, never the ingestion time. */
      at: Timestamp.nullable(),
      ingestedAt: Timestamp,
    }),
  ),
  nextCursor: z.string().nullable(),
});

export const AddressParams = z.object({ address: z.string() });
export const ResolveParams = z.object({
  namespace: z.string().describe(SEGMENT_RULE),
  label: z
    .string()
    .describe(
      "`label`, or `child.label` for a subname. Case-insensitive: ASCII A-Z is lower-cased, then each part must be a label; anything else is 400 `invalid_name`.",
    ),
});
export const NameParams = z.object({
  namespace: z.string().describe(SEGMENT_RULE),
  label: z.string().describe(SEGMENT_RULE),
});

export { isoOfSeconds } from "../../common/iso-seconds.ts";

export function ownershipOf(expiresAt: bigint | null, namespaceLocked: boolean): z.infer<typeof Ownership> {
  if (expiresAt !== null) return "expiring";
  return namespaceLocked ? "permanent" : "revocable";
}

/** Most names or addresses in one batch read. */
export const MAX_BATCH = 100;

export const ResolveBatchBody = z.strictObject({
  names: z
    .array(z.string())
    .min(1, `must list 1 to ${MAX_BATCH} names`)
    .max(MAX_BATCH, `must list 1 to ${MAX_BATCH} names`)
    .describe(
      "`label.namespace` or `child.label.namespace`, each as the single route takes it (A-Z is lower-cased).",
    ),
});

/** A batch item that did not resolve: the code (and detail) the single route answers for it. */
export const ResolveItemError = z.object({
  name: z.string().describe("The name lower-cased; as sent when it is not a name."),
  error: z.enum(["invalid_name", "name_not_found", "name_expired"]),
  detail: z.string().optional(),
});

export const ResolveBatchResponse = z.object({
  results: z
    .array(z.union([ResolveResponse, ResolveItemError]))
    .describe("One item per name asked, in the request's order."),
});

export const ReverseBatchBody = z.strictObject({
  addresses: z
    .array(z.string())
    .min(1, `must list 1 to ${MAX_BATCH} addresses`)
    .max(MAX_BATCH, `must list 1 to ${MAX_BATCH} addresses`)
    .describe("Stellar accounts (G…) or contracts (C…)."),
});

export const ReverseBatchResponse = z.object({
  results: z
    .array(
      z.union([
        z.object({
          address: z.string(),
          name: z.string().nullable().describe("The single route's name; null where it answers 404 no_name."),
        }),
        z.object({ address: z.string(), error: z.literal("bad_address"), detail: z.string() }),
      ]),
    )
    .describe("One item per address asked, in the request's order."),
});
