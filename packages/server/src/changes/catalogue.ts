// The change events namereg announces to apps (`GET /v1/stream`, hosted webhooks; docs/webhooks.md): every type,
// the fields its `data` carries beyond the common ones, and the envelope. One definition serves the writers (the
// indexer's mapping, the watchers), the readers (the stream, the deliverer) and the OpenAPI document's `webhooks`
// section, from which the client's typed union is generated. Values of text records are never in an event.
import { z } from "zod";

const node = z.string().regex(/^[0-9a-f]{64}$/, "64 lower-case hex characters");
/** A Stellar account (G…) or contract (C…) strkey. */
const address = z.string().min(56).max(56);
/** ISO 8601, chain time. */
const isoTime = z.string();
/** An XLM amount as a decimal string with 7 decimals (`"500.0000000"`). */
const xlm = z.string();

/** The type's own `data` fields; each is documented in docs/webhooks.md. */
export const CHANGE_DATA = {
  "name.issued": z.object({
    holder: address,
    address,
    expiresAt: isoTime.nullable(),
    generation: z.string(),
  }),
  "name.renewed": z.object({ expiresAt: isoTime.nullable() }),
  "name.transferred": z.object({ holder: address, address }),
  "name.reclaimed": z.object({}),
  "name.address_changed": z.object({ address }),
  "record.payment_changed": z.discriminatedUnion("record", [
    /** The resolver's payment instruction (address and memo) was set. */
    z.object({ record: z.literal("payment"), address, memo: z.string().max(64).nullable() }),
    /** The resolver's address record was set (a name without a configured payment). */
    z.object({ record: z.literal("address"), address }),
  ]),
  "record.text_changed": z.object({ key: z.string().max(32) }),
  "record.chain_address_changed": z.object({ network: z.string().max(64) }),
  "primary.changed": z.object({
    address,
    /** The new primary name; null when it was cleared. */
    primary: z.string().nullable(),
    /** The primary name before, as far as the mirror knew it. */
    previous: z.string().nullable(),
  }),
  "subname.created": z.object({ parent: z.string(), child: z.string(), address }),
  "subname.removed": z.object({ parent: z.string(), child: z.string() }),
  "namespace.policy_changed": z.discriminatedUnion("policy", [
    z.object({
      policy: z.literal("subnames"),
      subnames: z.enum(["enabled", "creation-disabled", "suspended"]),
    }),
    z.object({ policy: z.literal("networks"), networks: z.array(z.string().max(64)).max(32) }),
    z.object({ policy: z.literal("locked") }),
  ]),
  "namespace.transferred": z.object({ from: address, to: address }),
  "market.listed": z.object({ listingId: z.string(), seller: address, priceXlm: xlm }),
  "market.sold": z.object({ listingId: z.string(), seller: address, buyer: address, priceXlm: xlm }),
  "claim.announced": z.object({ claimId: z.string(), claimant: address, deadline: isoTime }),
  "claim.objected": z.object({ claimId: z.string(), objector: address }),
  "claim.awarded": z.object({ claimId: z.string() }),
  "billing.paid": z.object({
    periods: z.number().int().positive(),
    /** Null for a payment in another asset that an operator applied. */
    amountXlm: xlm.nullable(),
    paidUntil: isoTime,
  }),
  "billing.lapsed": z.object({ paidUntil: isoTime }),
} as const;

export type ChangeType = keyof typeof CHANGE_DATA;

/** One line per type: what happened (the OpenAPI document's webhook summaries; docs/webhooks.md says more). */
export const CHANGE_SUMMARIES: { readonly [T in ChangeType]: string } = {
  "name.issued": "A name was issued (or issued again after a reclaim or expiry)",
  "name.renewed": "A name's expiry was changed by the namespace owner",
  "name.transferred": "A name went to a new holder",
  "name.reclaimed": "A name was reclaimed by the namespace owner and stopped resolving",
  "name.address_changed": "The registrar's built-in pay-to address of a name changed",
  "record.payment_changed":
    "The resolver's payment instruction or address record of a name or subname changed",
  "record.text_changed":
    "A text record of a name or subname was set or removed (the key only, never the value)",
  "record.chain_address_changed":
    "A network address of a name or subname was set or removed (the network only)",
  "primary.changed": "An account's primary name was set or cleared",
  "subname.created": "A subname was created (or created again)",
  "subname.removed": "A subname was removed",
  "namespace.policy_changed": "A namespace's subname policy or network allowlist changed, or it was locked",
  "namespace.transferred": "A namespace went to a new owner",
  "market.listed": "A namespace was listed for sale (the escrow saw the seller's bond)",
  "market.sold": "A listed namespace was sold through the escrow",
  "claim.announced": "A claim for a new namespace was announced",
  "claim.objected": "An objection was filed against a claim",
  "claim.awarded": "A claim was awarded: the namespace is allocated to the claimant",
  "billing.paid": "A namespace's subscription was paid: periods were credited",
  "billing.lapsed": "A namespace's paid subscription time ran out",
};
export const CHANGE_TYPES = Object.keys(CHANGE_DATA) as ChangeType[];
export type ChangeDataOf<T extends ChangeType> = z.infer<(typeof CHANGE_DATA)[T]>;

export function isChangeType(value: string): value is ChangeType {
  return Object.hasOwn(CHANGE_DATA, value);
}

/** What every event's `data` carries, whatever its type. */
export const CHANGE_COMMON = z.object({
  /** The namespace label the change belongs to: whose owner's webhooks hear it, what `?namespace=` filters. */
  namespace: z.string(),
  /** The full name (`alice.acme`, `pay.alice.acme`) the change is about, when it is about one. */
  name: z.string().optional(),
  /** 64-hex node of the name, subname or namespace the change is about. */
  node: node.optional(),
  /** The ledger and transaction that made the change, to check it on chain. */
  ledger: z.number().int(),
  txHash: z.string(),
  /** The archive event id (`/v1/events`), or for watcher changes the payment id or the watcher's own key. */
  eventId: z.string(),
  /** Chain time of `ledger`; null when unknown. */
  at: isoTime.nullable(),
  /** True when the change reached the mirror late: a back-fill of a gap, or a replayed dead letter. */
  backfill: z.boolean(),
});
export type ChangeCommon = z.infer<typeof CHANGE_COMMON>;

/** The envelope of one type: `{ type, timestamp, data }`. */
export function changeEventSchema<T extends ChangeType>(type: T) {
  const data = CHANGE_DATA[type];
  return z.object({
    type: z.literal(type),
    /** When namereg recorded the change (ISO 8601); chain time is `data.at`. */
    timestamp: isoTime,
    data: z.intersection(CHANGE_COMMON, data),
  });
}

/** A change event as apps receive it. */
export type ChangeEvent = {
  [T in ChangeType]: { type: T; timestamp: string; data: ChangeCommon & ChangeDataOf<T> };
}[ChangeType];

/** Every payload stays below this (the issue's bound is 20 KB; the schemas' limits keep real ones near 1 KB). */
export const MAX_PAYLOAD_BYTES = 20_000;

/** What a writer hands to the outbox (db/outbox.ts): the common fields as columns, the type's own as `data`. */
export type ChangeDraft = {
  [T in ChangeType]: {
    type: T;
    namespace: string;
    name?: string;
    node?: string;
    ledger: number;
    txHash: string;
    eventId: string;
    /** Chain time of `ledger`; null when unknown. */
    at: Date | null;
    data: ChangeDataOf<T>;
  };
}[ChangeType];
