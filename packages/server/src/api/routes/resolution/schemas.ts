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
export const NameParams = z.object({
  namespace: z.string().describe(SEGMENT_RULE),
  label: z.string().describe(SEGMENT_RULE),
});

export { isoOfSeconds } from "../../common/iso-seconds.ts";

export function ownershipOf(expiresAt: bigint | null, namespaceLocked: boolean): z.infer<typeof Ownership> {
  if (expiresAt !== null) return "expiring";
  return namespaceLocked ? "permanent" : "revocable";
}
