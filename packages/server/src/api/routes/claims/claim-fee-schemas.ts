// Response shapes of the claim-fee routes (docs/api.md "Claim fee"), shared by the public routes and the console's announce.
import { FEE_OUTCOMES } from "@namereg/protocol";
import { z } from "zod";

/** An amount in base units (stroops): digits only, as the contract's i128 is printed. */
export const BaseUnits = z.string().regex(/^\d+$/);

/** A share in basis points (0–10000). */
const Bps = z.number().int().min(0).max(10_000);

export const QuoteSchema = z.object({
  allocatorId: z.string(),
  token: z.string(),
  amount: BaseUnits,
  recipient: z.string(),
  decimals: z.literal(7),
  asset: z.literal("XLM"),
  network: z.string(),
  refundBps: z.object({
    Awarded: Bps,
    Rejected: Bps,
    Stuck: Bps,
    Withdrawn: Bps,
    Expired: Bps,
  }),
  rounding: z.literal("floor"),
});

export const ReceiptSchema = z.object({
  claimant: z.string(),
  amount: BaseUnits,
  outcome: z.enum(FEE_OUTCOMES),
  refundAmount: BaseUnits,
  treasuryAmount: BaseUnits,
});
