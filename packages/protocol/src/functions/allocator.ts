// The allocator's functions (docs/contracts.md).
import { address, i128, label, option, string, symbol, u64, unit, vec } from "../scval.ts";
import { Claim, Evidence, FeePolicy, FeeQuote, Receipt } from "../structs.ts";
import { fn } from "./fn.ts";

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
