// Every contract event of docs/contracts.md "Events": topic layout and data layout, with encode (devnet) and
// decode (indexer). A topic list whose first symbol is not a naming event decodes to null (e.g. the native
// token's `transfer`), so the indexer archives it without projecting; a known event with a wrong layout throws
// EventDecodeError, which the indexer dead-letters.
import type { xdr } from "@stellar/stellar-sdk";
import {
  address,
  type Codec,
  type CodecValue,
  hash32,
  i128,
  label,
  option,
  ScValDecodeError,
  scValFromBase64,
  string,
  struct,
  symbol,
  symbolEnum,
  tuple,
  u64,
  unit,
  vec,
} from "./scval.ts";
import {
  Claim,
  FEE_OUTCOMES,
  FeePolicy,
  NAME_ACTIONS,
  NAMESPACE_METHODS,
  Payment,
  Receipt,
  SUBNAME_ACTIONS,
  SUBNAME_POLICIES,
  TRANSFER_ACTIONS,
} from "./structs.ts";

export class EventDecodeError extends Error {
  readonly eventName: string | null;
  constructor(eventName: string | null, message: string, options?: { cause?: unknown }) {
    super(eventName ? `${eventName}: ${message}` : message, options);
    this.name = "EventDecodeError";
    this.eventName = eventName;
  }
}

type TopicSpec = readonly (readonly [string, Codec<unknown>])[];
type TopicValues<S extends TopicSpec> = { [E in S[number] as E[0]]: CodecValue<E[1]> };

/** The contract that emits an event: each event has exactly one owner, recorded once below. */
export type EventContract = "registry" | "registrar" | "resolver" | "primary" | "lookup" | "allocator";

/**
 * Where an event's archive subject (`/v1/events?subject=`) comes from: a topic field, a field of its data
 * struct, or nothing (contract-wide settings).
 */
export type SubjectSource = { topic: string } | { data: string } | null;

export interface EventDef<C extends EventContract, N extends string, S extends TopicSpec, D> {
  readonly name: N;
  readonly contract: C;
  readonly topics: S;
  readonly data: Codec<D>;
  readonly subject: SubjectSource;
}

/** The subject defaults to the first topic (node, address, claim id or receipt key), or none without topics. */
function def<const C extends EventContract, const N extends string, const S extends TopicSpec, D>(
  contract: C,
  name: N,
  topics: S,
  data: Codec<D>,
  subject: SubjectSource = topics[0] === undefined ? null : { topic: topics[0][0] },
): EventDef<C, N, S, D> {
  return { name, contract, topics, data, subject };
}

const node = hash32;
const generation = u64;

export const NamespaceAllocated = struct("NamespaceAllocated", {
  label,
  owner: address,
  resolver: option(address),
  method: symbolEnum(NAMESPACE_METHODS),
});
/**
 * The legacy allocation layout (topic `ns`, node only): registries from before the versioned events emitted no
 * label, so such a namespace is known by its hash until verified discovery data names it (docs/contracts.md "Rules the indexer relies on").
 */
export const LegacyNamespaceAllocated = struct("LegacyNamespaceAllocated", {
  owner: address,
  resolver: option(address),
  method: symbolEnum(NAMESPACE_METHODS),
});
export const NameChange = struct("NameChange", {
  label,
  action: symbolEnum(NAME_ACTIONS),
  holder: address,
  address,
  expiresAt: u64,
});
export const TransferChange = struct("TransferChange", {
  label,
  action: symbolEnum(TRANSFER_ACTIONS),
  holder: address,
  to: option(address),
  proposalExpires: option(u64),
  expiresAt: u64,
});
/** `parent` is the parent name's node, `child` the child label. */
export const SubnameChange = struct("SubnameChange", {
  parent: hash32,
  child: label,
  action: symbolEnum(SUBNAME_ACTIONS),
  address,
});

/** Routing events carry the new contract address, or void when it was removed (`set_resolver(None)`). */
const routing = <const N extends string>(name: N) => def("registry", name, [["node", node]], option(address));

export const EVENT_DEFS = {
  // Registry
  ns_v1: def("registry", "ns_v1", [["node", node]], NamespaceAllocated),
  ns: def("registry", "ns", [["node", node]], LegacyNamespaceAllocated),
  dep_reg: routing("dep_reg"),
  att_reg: routing("att_reg"),
  dep_res: routing("dep_res"),
  set_res: routing("set_res"),
  reg_upg: routing("reg_upg"),
  res_upg: routing("res_upg"),
  locked: routing("locked"),
  prop_tr: def(
    "registry",
    "prop_tr",
    [["node", node]],
    struct("NamespaceTransferProposed", { to: address, expires: u64 }),
  ),
  acc_tr: def(
    "registry",
    "acc_tr",
    [["node", node]],
    struct("NamespaceTransferAccepted", { from: address, to: address }),
  ),
  canc_tr: def("registry", "canc_tr", [["node", node]], unit),
  // Registrar
  name_v1: def(
    "registrar",
    "name_v1",
    [
      ["node", node],
      ["generation", generation],
    ],
    NameChange,
  ),
  xfer_v1: def(
    "registrar",
    "xfer_v1",
    [
      ["node", node],
      ["generation", generation],
    ],
    TransferChange,
  ),
  sub_pol: def(
    "registrar",
    "sub_pol",
    [],
    struct("SubnamePolicyChanged", { policy: symbolEnum(SUBNAME_POLICIES) }),
  ),
  sub_v1: def(
    "registrar",
    "sub_v1",
    [
      ["node", node],
      ["generation", generation],
    ],
    SubnameChange,
  ),
  // Resolver
  addr_v1: def(
    "resolver",
    "addr_v1",
    [
      ["node", node],
      ["generation", generation],
    ],
    address,
  ),
  text_v1: def(
    "resolver",
    "text_v1",
    [
      ["node", node],
      ["generation", generation],
    ],
    symbol,
  ),
  pay_v1: def(
    "resolver",
    "pay_v1",
    [
      ["node", node],
      ["generation", generation],
    ],
    Payment,
  ),
  disp_v1: def("resolver", "disp_v1", [["node", node]], struct("DisplayNameSet", { address })),
  chn_pol: def("resolver", "chn_pol", [], struct("ChainPolicyChanged", { networks: vec(string) })),
  chn_v1: def(
    "resolver",
    "chn_v1",
    [
      ["node", node],
      ["generation", generation],
    ],
    struct("ChainAddressChanged", { network: string }),
  ),
  // Primary
  set_pri: def("primary", "set_pri", [["address", address]], struct("PrimarySet", { name: string })),
  clr_pri: def("primary", "clr_pri", [["address", address]], unit),
  // Lookup
  upg_prop: def("lookup", "upg_prop", [], tuple([hash32, u64])),
  upg_exec: def("lookup", "upg_exec", [], hash32),
  upg_canc: def("lookup", "upg_canc", [], hash32),
  // Allocator: claims
  clm_ann: def("allocator", "clm_ann", [["id", u64]], Claim),
  clm_obj: def(
    "allocator",
    "clm_obj",
    [["id", u64]],
    struct("ObjectionFiled", { objector: address, basis: vec(symbol), bond: i128 }),
  ),
  obj_end: def(
    "allocator",
    "obj_end",
    [["id", u64]],
    struct("ObjectionEnded", { objector: address, reason: symbol }),
  ),
  clm_resp: def("allocator", "clm_resp", [["id", u64]], struct("ClaimResponse", { response: string })),
  clm_awd: def("allocator", "clm_awd", [["id", u64]], unit),
  clm_wd: def("allocator", "clm_wd", [["id", u64]], unit),
  clm_rej: def("allocator", "clm_rej", [["id", u64]], unit),
  clm_exp: def("allocator", "clm_exp", [["id", u64]], unit),
  // Allocator: fee
  fee_cfg: def("allocator", "fee_cfg", [], FeePolicy),
  fee_paid: def(
    "allocator",
    "fee_paid",
    [["key", hash32]],
    struct("FeePaid", { label, claimant: address, token: address, amount: i128 }),
  ),
  fee_done: def(
    "allocator",
    "fee_done",
    [["key", hash32]],
    struct("FeeDone", { label, token: address, recipient: address, receipt: Receipt }),
  ),
  fee_cred: def("allocator", "fee_cred", [], struct("FeeCredited", { payee: address, amount: i128 }), {
    data: "payee",
  }),
  fee_pull: def("allocator", "fee_pull", [], struct("FeeCreditClaimed", { payee: address, amount: i128 }), {
    data: "payee",
  }),
  fee_sweep: def("allocator", "fee_sweep", [], struct("FeeSwept", { recipient: address, amount: i128 }), {
    data: "recipient",
  }),
} as const;

export type EventName = keyof typeof EVENT_DEFS;
export const EVENT_NAMES = Object.keys(EVENT_DEFS) as EventName[];

type EventOf<D> =
  D extends EventDef<EventContract, infer N, infer S, infer V>
    ? { type: N } & TopicValues<S> & { data: V }
    : never;

/** A decoded naming event: `type` is the event name, topic fields by name, `data` the decoded payload. */
export type ContractEvent = { [K in EventName]: EventOf<(typeof EVENT_DEFS)[K]> }[EventName];
export type EventOfType<T extends EventName> = Extract<ContractEvent, { type: T }>;

/** The names of the events contract C emits. */
export type EventNameOf<C extends EventContract> = {
  [K in EventName]: (typeof EVENT_DEFS)[K]["contract"] extends C ? K : never;
}[EventName];
/** The decoded events contract C emits. */
export type EventsOf<C extends EventContract> = EventOfType<EventNameOf<C>>;

/** The emitting contract of every event, derived from the definitions. */
export const CONTRACT_OF_EVENT = Object.fromEntries(
  EVENT_NAMES.map((name) => [name, EVENT_DEFS[name].contract]),
) as { readonly [K in EventName]: (typeof EVENT_DEFS)[K]["contract"] };

/** The subject an event is about (a node, an address, a claim id or a receipt key), for the archive. */
export function subjectOfEvent(event: ContractEvent): string | null {
  const source = EVENT_DEFS[event.type].subject;
  if (source === null) return null;
  const value =
    "topic" in source
      ? (event as unknown as Record<string, unknown>)[source.topic]
      : (event.data as Record<string, unknown>)[source.data];
  return value === null || value === undefined ? null : String(value);
}

export const FEE_OUTCOME_VALUES = FEE_OUTCOMES;

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENT_DEFS, name);
}

/** Encodes a naming event as it appears on chain: topics (the name symbol first) and data. */
export function encodeEvent(event: ContractEvent): { topics: xdr.ScVal[]; data: xdr.ScVal } {
  const d = EVENT_DEFS[event.type] as EventDef<EventContract, string, TopicSpec, unknown>;
  const fields = event as unknown as Record<string, unknown>;
  const topics = [symbol.encode(d.name), ...d.topics.map(([field, codec]) => codec.encode(fields[field]))];
  return { topics, data: d.data.encode(fields.data) };
}

/** The event name of a topic list, or null when the first topic is not a symbol. */
export function eventNameOf(topics: readonly xdr.ScVal[]): string | null {
  const first = topics[0];
  return first !== undefined && first.type === "scvSymbol" ? first.sym.toString() : null;
}

/**
 * Decodes a naming event. Returns null when the topics do not name a naming event (other contracts' events);
 * throws EventDecodeError when they do but the layout is wrong.
 */
export function decodeEvent(topics: readonly xdr.ScVal[], data: xdr.ScVal): ContractEvent | null {
  const name = eventNameOf(topics);
  if (name === null || !isEventName(name)) return null;
  const d = EVENT_DEFS[name] as EventDef<EventContract, string, TopicSpec, unknown>;
  if (topics.length !== d.topics.length + 1) {
    throw new EventDecodeError(name, `expected ${d.topics.length + 1} topics, got ${topics.length}`);
  }
  try {
    const out: Record<string, unknown> = { type: name };
    d.topics.forEach(([field, codec], i) => {
      out[field] = codec.decode(topics[i + 1] as xdr.ScVal, `topic[${i + 1}]`);
    });
    out.data = d.data.decode(data, "data");
    return out as ContractEvent;
  } catch (err) {
    if (err instanceof ScValDecodeError) throw new EventDecodeError(name, err.message, { cause: err });
    throw err;
  }
}

/** As decodeEvent, from the base64 XDR of getEvents (`topic[]`, `value`). */
export function decodeEventXdr(topicsB64: readonly string[], valueB64: string): ContractEvent | null {
  let topics: xdr.ScVal[];
  let data: xdr.ScVal;
  try {
    topics = topicsB64.map((t, i) => scValFromBase64(t, `topic[${i}]`));
    data = scValFromBase64(valueB64, "data");
  } catch (err) {
    throw new EventDecodeError(null, err instanceof Error ? err.message : "undecodable XDR", { cause: err });
  }
  return decodeEvent(topics, data);
}
