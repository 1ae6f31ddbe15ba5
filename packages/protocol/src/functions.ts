// Contract function signatures of docs/contracts.md: argument and return layouts. The server encodes arguments and
// decodes returns with these; the devnet decodes arguments and encodes returns with the very same definitions.
import type { xdr } from "@stellar/stellar-sdk";
import {
  address,
  bool,
  bytes,
  type Codec,
  type CodecValue,
  hash32,
  i128,
  label,
  option,
  ScValDecodeError,
  string,
  symbol,
  symbolEnum,
  tuple,
  u32,
  u64,
  unit,
  vec,
} from "./scval.ts";
import {
  Child,
  Claim,
  Evidence,
  FeePolicy,
  FeeQuote,
  NAMESPACE_METHODS,
  Name,
  Namespace,
  NamespaceTransfer,
  Payment,
  Receipt,
  Resolution,
  SUBNAME_POLICIES,
  SubnamePolicy,
} from "./structs.ts";

export type ArgSpec = readonly (readonly [string, Codec<unknown>])[];
export type ArgValues<A extends ArgSpec> = { [E in A[number] as E[0]]: CodecValue<E[1]> };

export interface FnDef<A extends ArgSpec, R> {
  readonly name: string;
  readonly args: A;
  readonly returns: Codec<R>;
  encodeArgs(values: ArgValues<A>): xdr.ScVal[];
  /** Throws ScValDecodeError on a wrong argument count or layout (the host reports it as a trap). */
  decodeArgs(args: readonly xdr.ScVal[]): ArgValues<A>;
}

function fn<const A extends ArgSpec, R>(name: string, args: A, returns: Codec<R>): FnDef<A, R> {
  return {
    name,
    args,
    returns,
    encodeArgs(values) {
      const v = values as Record<string, unknown>;
      return args.map(([argName, codec]) => codec.encode(v[argName]));
    },
    decodeArgs(raw) {
      if (raw.length !== args.length) {
        throw new ScValDecodeError(name, `expected ${args.length} arguments, got ${raw.length}`);
      }
      const out: Record<string, unknown> = {};
      args.forEach(([argName, codec], i) => {
        out[argName] = codec.decode(raw[i] as xdr.ScVal, `${name}.${argName}`);
      });
      return out as ArgValues<A>;
    },
  };
}

const node = hash32;
const wasm = bytes;

export const RegistryFns = {
  __constructor: fn(
    "__constructor",
    [
      ["admin", address],
      ["allocator", address],
    ],
    unit,
  ),
  namespace: fn("namespace", [["node", node]], option(Namespace)),
  allocate: fn(
    "allocate",
    [
      ["label", label],
      ["owner", address],
      ["method", symbolEnum(NAMESPACE_METHODS)],
    ],
    unit,
  ),
  deploy_registrar: fn("deploy_registrar", [["node", node]], address),
  attach_registrar: fn(
    "attach_registrar",
    [
      ["node", node],
      ["registrar", address],
    ],
    unit,
  ),
  deploy_resolver: fn("deploy_resolver", [["node", node]], address),
  set_resolver: fn(
    "set_resolver",
    [
      ["node", node],
      ["resolver", option(address)],
    ],
    unit,
  ),
  upgrade_registrar: fn(
    "upgrade_registrar",
    [
      ["node", node],
      ["wasm", wasm],
    ],
    unit,
  ),
  upgrade_resolver: fn(
    "upgrade_resolver",
    [
      ["node", node],
      ["wasm", wasm],
    ],
    unit,
  ),
  lock: fn("lock", [["node", node]], unit),
  propose_transfer: fn(
    "propose_transfer",
    [
      ["node", node],
      ["to", address],
      ["expires", u64],
    ],
    unit,
  ),
  accept_transfer: fn("accept_transfer", [["node", node]], unit),
  cancel_transfer: fn("cancel_transfer", [["node", node]], unit),
  /** Read of the live namespace-transfer proposal (null when none or expired). */
  transfer_proposal: fn("transfer_proposal", [["node", node]], option(NamespaceTransfer)),
} as const;

export const RegistrarFns = {
  __constructor: fn(
    "__constructor",
    [
      ["registry", address],
      ["node", node],
    ],
    unit,
  ),
  name: fn("name", [["label", label]], option(Name)),
  issue: fn(
    "issue",
    [
      ["label", label],
      ["holder", address],
      ["address", address],
      ["expiresAt", u64],
    ],
    unit,
  ),
  reclaim: fn("reclaim", [["label", label]], unit),
  transfer: fn(
    "transfer",
    [
      ["label", label],
      ["to", address],
    ],
    unit,
  ),
  propose: fn(
    "propose",
    [
      ["label", label],
      ["to", address],
      ["expires", u64],
    ],
    unit,
  ),
  cancel: fn("cancel", [["label", label]], unit),
  accept: fn("accept", [["label", label]], unit),
  renew: fn(
    "renew",
    [
      ["label", label],
      ["expiresAt", u64],
    ],
    unit,
  ),
  set_address: fn(
    "set_address",
    [
      ["label", label],
      ["address", address],
    ],
    unit,
  ),
  subname_policy: fn("subname_policy", [], SubnamePolicy),
  set_subname_policy: fn("set_subname_policy", [["policy", symbolEnum(SUBNAME_POLICIES)]], unit),
  subname: fn(
    "subname",
    [
      ["label", label],
      ["child", label],
    ],
    option(Child),
  ),
  subnames: fn(
    "subnames",
    [
      ["label", label],
      ["offset", u32],
      ["limit", u32],
    ],
    vec(tuple([label, Child] as const)),
  ),
  create_subname: fn(
    "create_subname",
    [
      ["label", label],
      ["child", label],
      ["parentGeneration", u64],
      ["generation", option(u64)],
      ["address", address],
    ],
    unit,
  ),
  remove_subname: fn(
    "remove_subname",
    [
      ["label", label],
      ["child", label],
      ["parentGeneration", u64],
      ["generation", u64],
    ],
    unit,
  ),
  /**
   * Who controls a node of this namespace (a name or a live subname) and its generation; used by the
   * namespace's resolver to authorise record writes. Null for an unknown node.
   */
  node_info: fn("node_info", [["node", node]], option(tuple([address, u64, bool] as const))),
} as const;

export const ResolverFns = {
  __constructor: fn(
    "__constructor",
    [
      ["registry", address],
      ["node", node],
    ],
    unit,
  ),
  addr: fn("addr", [["node", node]], option(address)),
  set_addr: fn(
    "set_addr",
    [
      ["node", node],
      ["address", address],
    ],
    unit,
  ),
  text: fn(
    "text",
    [
      ["node", node],
      ["key", symbol],
    ],
    option(string),
  ),
  set_text: fn(
    "set_text",
    [
      ["node", node],
      ["key", symbol],
      ["value", option(string)],
    ],
    unit,
  ),
  payment: fn("payment", [["node", node]], option(Payment)),
  set_payment: fn(
    "set_payment",
    [
      ["node", node],
      ["address", address],
      ["memo", option(string)],
    ],
    unit,
  ),
  display_name: fn("display_name", [["address", address]], option(hash32)),
  set_display_name: fn(
    "set_display_name",
    [
      ["address", address],
      ["node", node],
    ],
    unit,
  ),
  chain_policy: fn("chain_policy", [], vec(string)),
  set_chain_policy: fn("set_chain_policy", [["networks", vec(string)]], unit),
  chain_address: fn(
    "chain_address",
    [
      ["node", node],
      ["network", string],
    ],
    option(string),
  ),
  set_chain_address: fn(
    "set_chain_address",
    [
      ["node", node],
      ["network", string],
      ["address", option(string)],
    ],
    unit,
  ),
} as const;

export const PrimaryFns = {
  __constructor: fn("__constructor", [["lookup", address]], unit),
  primary: fn("primary", [["address", address]], option(string)),
  set_primary: fn(
    "set_primary",
    [
      ["address", address],
      ["name", string],
    ],
    unit,
  ),
  clear_primary: fn("clear_primary", [["address", address]], unit),
} as const;

export const LookupFns = {
  __constructor: fn(
    "__constructor",
    [
      ["admin", address],
      ["registry", address],
    ],
    unit,
  ),
  lookup: fn("lookup", [["name", string]], option(Resolution)),
  propose_upgrade: fn(
    "propose_upgrade",
    [
      ["wasmHash", hash32],
      ["executeAfter", u64],
    ],
    unit,
  ),
  execute_upgrade: fn("execute_upgrade", [], unit),
  cancel_upgrade: fn("cancel_upgrade", [], unit),
} as const;

export const AllocatorFns = {
  __constructor: fn(
    "__constructor",
    [
      ["admin", address],
      ["registry", address],
      ["windowSeconds", u64],
      ["graceSeconds", u64],
    ],
    unit,
  ),
  announce: fn(
    "announce",
    [
      ["claimant", address],
      ["label", label],
      ["basis", vec(symbol)],
      ["evidence", vec(Evidence)],
      ["fee", FeeQuote],
    ],
    u64,
  ),
  object: fn(
    "object",
    [
      ["objector", address],
      ["id", u64],
      ["basis", vec(symbol)],
      ["bond", i128],
    ],
    unit,
  ),
  dismiss_objection: fn(
    "dismiss_objection",
    [
      ["id", u64],
      ["objector", address],
    ],
    unit,
  ),
  respond: fn(
    "respond",
    [
      ["id", u64],
      ["response", string],
    ],
    unit,
  ),
  award: fn("award", [["id", u64]], unit),
  withdraw: fn("withdraw", [["id", u64]], unit),
  reject: fn("reject", [["id", u64]], unit),
  expire: fn("expire", [["id", u64]], unit),
  mark_stuck: fn("mark_stuck", [["id", u64]], unit),
  claim: fn("claim", [["id", u64]], option(Claim)),
  fee_policy: fn("fee_policy", [], option(FeePolicy)),
  set_fee_policy: fn(
    "set_fee_policy",
    [
      ["token", address],
      ["amount", i128],
      ["recipient", address],
    ],
    unit,
  ),
  fee_receipt: fn("fee_receipt", [["label", label]], option(Receipt)),
  fee_credit: fn("fee_credit", [["payee", address]], i128),
  claim_fee_credit: fn("claim_fee_credit", [["payee", address]], i128),
  touch_fee_credit: fn("touch_fee_credit", [["payee", address]], unit),
  sweep: fn("sweep", [["recipient", address]], i128),
  bond_credit: fn("bond_credit", [["payee", address]], i128),
  claim_bond_credit: fn("claim_bond_credit", [["payee", address]], i128),
  reserve: fn(
    "reserve",
    [
      ["label", label],
      ["owner", address],
    ],
    unit,
  ),
} as const;

/** The native token (Stellar Asset Contract) functions the naming system uses. */
export const TokenFns = {
  transfer: fn(
    "transfer",
    [
      ["from", address],
      ["to", address],
      ["amount", i128],
    ],
    unit,
  ),
  balance: fn("balance", [["id", address]], i128),
  decimals: fn("decimals", [], u32),
} as const;
