import { boolean, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tz, u64 } from "./columns.ts";

// The allocator's mirror (indexer/projections/allocator.ts); the claim-queue and claim-fee routes read it.
// - claims: one row per claim id: label, claimant, basis, evidence, claimant response, state (announced,
//   objected, awarded, withdrawn, rejected, expired), announced ledger and chain time, deadline (unix s), award
//   time (chain time, unix s) and the fee outcome of the claim's receipt epoch (`Stuck` is a fee outcome only:
//   the claim keeps its state).
// - claim_objections: one row per (claim, objector): basis and bond, live or ended with the contract's reason
//   (dismissed, timeout, awarded, closed) and the ledgers it was filed and ended in.
// - fee_receipts: the current receipt per label (the latest epoch), as the contract's fee_receipt(label) holds it.
// - claim_fee_receipts: every receipt epoch per label; a fresh claim for a label whose receipt is terminal starts
//   the next epoch, earlier ones stay here with their outcome and refund/treasury split.
// - claim_credits: per kind (`fee` refunds, `bond` objection bonds) and payee, the amounts credited and claimed.
//   Fee credits are exact (fee_cred, fee_pull); the contract emits no event when a bond credit is claimed, so a
//   bond row's `claimed` stays 0 and what is still available must be read live (bond_credit).
// - claim_fee_policy: the last fee_cfg per allocator (routes still quote the live policy).
// - claim_fee_sweeps: every surplus sweep (fee_sweep), by event id.
export const claims = pgTable(
  "claims",
  {
    id: u64("id").primaryKey(),
    label: text("label").notNull(),
    claimant: text("claimant").notNull(),
    basis: jsonb("basis").$type<string[]>().notNull(),
    evidence: jsonb("evidence").$type<{ label: string; url: string }[]>().notNull(),
    state: text("state").notNull(),
    announcedLedger: integer("announced_ledger").notNull(),
    /** Chain time of the announcing ledger; null when the RPC did not report it. */
    announcedAt: tz("announced_at"),
    deadline: u64("deadline").notNull(),
    response: text("response"),
    awardedAt: u64("awarded_at"),
    /** Outcome of this claim's fee receipt epoch: Held until settled; null before fee_paid is seen. */
    feeOutcome: text("fee_outcome"),
    updatedLedger: integer("updated_ledger").notNull(),
  },
  (t) => [index("claims_label_idx").on(t.label)],
);

export const claimObjections = pgTable(
  "claim_objections",
  {
    claimId: u64("claim_id").notNull(),
    objector: text("objector").notNull(),
    basis: jsonb("basis").$type<string[]>().notNull(),
    bond: u64("bond").notNull(),
    live: boolean("live").notNull(),
    endReason: text("end_reason"),
    filedLedger: integer("filed_ledger"),
    endedLedger: integer("ended_ledger"),
  },
  (t) => [primaryKey({ columns: [t.claimId, t.objector] })],
);

export const feeReceipts = pgTable("fee_receipts", {
  label: text("label").primaryKey(),
  key: text("key").notNull(),
  claimant: text("claimant").notNull(),
  token: text("token").notNull(),
  recipient: text("recipient"),
  amount: u64("amount").notNull(),
  outcome: text("outcome").notNull(),
  refundAmount: u64("refund_amount").notNull(),
  treasuryAmount: u64("treasury_amount").notNull(),
  ledger: integer("ledger").notNull(),
  /** 1 for a label's first receipt, +1 each time a fresh claim replaces a terminal one. */
  epoch: integer("epoch").notNull().default(1),
  /** The claim that paid this epoch (the announce in the same transaction). */
  claimId: u64("claim_id"),
  paidLedger: integer("paid_ledger"),
  settledLedger: integer("settled_ledger"),
});

export const claimFeeReceipts = pgTable(
  "claim_fee_receipts",
  {
    label: text("label").notNull(),
    epoch: integer("epoch").notNull(),
    key: text("key").notNull(),
    claimId: u64("claim_id"),
    claimant: text("claimant").notNull(),
    token: text("token").notNull(),
    recipient: text("recipient"),
    amount: u64("amount").notNull(),
    outcome: text("outcome").notNull(),
    refundAmount: u64("refund_amount").notNull(),
    treasuryAmount: u64("treasury_amount").notNull(),
    paidLedger: integer("paid_ledger"),
    settledLedger: integer("settled_ledger"),
  },
  (t) => [primaryKey({ columns: [t.label, t.epoch] })],
);

export const claimCredits = pgTable(
  "claim_credits",
  {
    kind: text("kind").notNull(),
    payee: text("payee").notNull(),
    credited: u64("credited").notNull(),
    claimed: u64("claimed").notNull(),
    updatedLedger: integer("updated_ledger").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.payee] })],
);

export const claimFeePolicy = pgTable("claim_fee_policy", {
  allocatorId: text("allocator_id").primaryKey(),
  token: text("token").notNull(),
  amount: u64("amount").notNull(),
  recipient: text("recipient").notNull(),
  ledger: integer("ledger").notNull(),
  at: tz("at"),
});

export const claimFeeSweeps = pgTable("claim_fee_sweeps", {
  eventId: text("event_id").primaryKey(),
  recipient: text("recipient").notNull(),
  amount: u64("amount").notNull(),
  ledger: integer("ledger").notNull(),
  at: tz("at"),
});
