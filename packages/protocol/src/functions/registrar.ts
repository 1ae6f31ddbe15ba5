// A namespace registrar's functions (docs/contracts.md).
import { address, bool, label, option, symbolEnum, tuple, u32, u64, unit, vec } from "../scval.ts";
import { Child, Name, SUBNAME_POLICIES, SubnamePolicy } from "../structs.ts";
import { fn, node } from "./fn.ts";

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
