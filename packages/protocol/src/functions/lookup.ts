// The lookup contract's functions (docs/contracts.md).
import { address, hash32, option, string, u64, unit } from "../scval.ts";
import { Resolution } from "../structs.ts";
import { fn } from "./fn.ts";

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
