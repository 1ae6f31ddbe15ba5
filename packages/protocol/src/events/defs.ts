// Every naming event, by name, and the types derived from the definitions.
import {
  address,
  hash32,
  i128,
  label,
  string,
  struct,
  symbol,
  symbolEnum,
  tuple,
  u64,
  unit,
  vec,
} from "../scval.ts";
import { Claim, FeePolicy, Payment, Receipt, SUBNAME_POLICIES } from "../structs.ts";
import { def, type EventContract, type EventDef, generation, node, type TopicValues } from "./def.ts";
import {
  LegacyNamespaceAllocated,
  NameChange,
  NamespaceAllocated,
  routing,
  SubnameChange,
  TransferChange,
} from "./payloads.ts";

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
