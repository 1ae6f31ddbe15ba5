// Response shapes of the claim-fee routes (docs/api.md "Claim fee"), shared by the public routes and the console's announce.
import { FEE_OUTCOMES } from "@namereg/protocol";
import { z } from "zod";

const BaseUnits = z.string().regex(/^\d+$/);

export const QuoteSchema = z.object({
  allocatorId: z.string(),
  token: z.string(),
  amount: BaseUnits,
  recipient: z.string(),
  decimals: z.literal(7),
  asset: z.literal("XLM"),
  network: z.string(),
  refundBps: z.object({
    Awarded: z.number().int(),
    Rejected: z.number().int(),
    Stuck: z.number().int(),
    Withdrawn: z.number().int(),
    Expired: z.number().int(),
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
