// The registry's functions (docs/contracts.md).
import { address, label, option, symbolEnum, u64, unit } from "../scval.ts";
import { NAMESPACE_METHODS, Namespace, NamespaceTransfer } from "../structs.ts";
import { fn, node, wasm } from "./fn.ts";

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
