// The change events of `GET /v1/stream` and of hosted webhooks (docs/webhooks.md) as a typed union. The types
// come from the OpenAPI document's `webhooks` section (generated/openapi.ts), which the server writes from the
// same catalogue its indexer and watchers write with, so they cannot drift apart.
import type { webhooks } from "./generated/openapi.ts";

/** Every change type, e.g. `name.issued`. */
export type ChangeType = keyof webhooks;

type BodyOf<T extends ChangeType> = webhooks[T]["post"] extends {
  requestBody: { content: { "application/json": infer B } };
}
  ? B
  : never;

/** The change event of one type: `{ type, timestamp, data: { namespace, name?, node?, ledger, txHash, eventId, … } }`. */
export type ChangeEventOf<T extends ChangeType> = BodyOf<T>;

/** Any change event; narrow it on `type`. */
export type ChangeEvent = { [T in ChangeType]: BodyOf<T> }[ChangeType];

/** The change types, in the order docs/webhooks.md lists them. */
export const CHANGE_TYPES = [
  "name.issued",
  "name.renewed",
  "name.transferred",
  "name.reclaimed",
  "name.address_changed",
  "record.payment_changed",
  "record.text_changed",
  "record.chain_address_changed",
  "primary.changed",
  "subname.created",
  "subname.removed",
  "namespace.policy_changed",
  "namespace.transferred",
  "market.listed",
  "market.sold",
  "claim.announced",
  "claim.objected",
  "claim.awarded",
  "billing.paid",
  "billing.lapsed",
] as const satisfies readonly ChangeType[];

// Every generated type is listed above: a type the document gains and this list lacks fails to compile here.
type Missing = Exclude<ChangeType, (typeof CHANGE_TYPES)[number]>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;

export function isChangeType(value: string): value is ChangeType {
  return (CHANGE_TYPES as readonly string[]).includes(value);
}
