import { address, i128, u32, unit } from "../scval.ts";
import { fn } from "./fn.ts";

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
