// The primary-name contract's functions (docs/contracts.md).
import { address, option, string, unit } from "../scval.ts";
import { fn } from "./fn.ts";

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
