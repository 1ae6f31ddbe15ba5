// The HTTP shapes of the subname routes (docs/api.md "Subnames, network addresses and holder transactions"), shared with the network-address and holder routes.
import { z } from "zod";
import { LabelSegment } from "../path-params.ts";

/** A single label as a path segment: the one rule of name segments (lower-cased, then a label). */
export const LabelParam = LabelSegment;
/** u64 as an exact decimal string. */
const U64_MAX = 18_446_744_073_709_551_615n;
/** A u64 in decimal (the contracts' generations): one past the range is a malformed request, not a mismatch. */
export const Generation = z
  .string()
  .regex(/^(0|[1-9]\d{0,19})$/, "must be a decimal integer")
  // Zod runs this check after a failed regex too: only digits are read as a number.
  .refine((v) => !/^\d+$/.test(v) || BigInt(v) <= U64_MAX, `must be at most ${U64_MAX}`);
const Iso = z.iso.datetime();
export const PolicyHttp = z.enum(["enabled", "creation-disabled", "suspended"]);

export const ParentContextSchema = z.object({
  name: z.string(),
  holder: z.string(),
  generation: Generation,
  active: z.boolean(),
  expiresAt: Iso.nullable(),
});

export const ChildRecordSchema = z.object({
  exists: z.boolean(),
  active: z.boolean(),
  validBinding: z.boolean(),
  controller: z.string().nullable(),
  parentGeneration: Generation,
  generation: Generation,
  address: z.string(),
  expiresAt: Iso.nullable(),
  policy: PolicyHttp,
  source: z.literal("chain"),
});

export type ParentContext = z.infer<typeof ParentContextSchema>;
export type ChildRecord = z.infer<typeof ChildRecordSchema>;
