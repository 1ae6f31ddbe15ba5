// The resolver's functions (docs/contracts.md).
import { address, hash32, option, string, symbol, unit, vec } from "../scval.ts";
import { Payment } from "../structs.ts";
import { fn, node } from "./fn.ts";

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
