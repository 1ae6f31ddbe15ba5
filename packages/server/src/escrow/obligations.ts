// Obligations are written in the transaction that takes the verdict, before anything is sent. Their ids are
// `<payment id>:<purpose>`, so replaying a verdict (after a crash between deciding and committing, or twice by
// mistake) can never create a second obligation for the same money. The operator's fee withdrawals are the one
// kind no payment causes: `fee:<request id>` (fees.ts), idempotent by the id the operator gives.
import { createHash } from "node:crypto";
import { marketPayouts } from "../db/tables.ts";
import type { Db } from "../db/types.ts";

export const PURPOSES = [
  "seller",
  "refund",
  "surplus",
  "bounce",
  "slash",
  "bond_return",
  "release",
  "fee_withdrawal",
] as const;
export type Purpose = (typeof PURPOSES)[number];

/**
 * The hash memo every payout carries: sha256 of its obligation id (`<payment id>:<purpose>`, `fee:<id>`,
 * `…:release`), so the escrow's own transactions on chain say which obligation each one paid. That is what lets a
 * watcher whose database was restored from before a payout find the payout instead of paying again, and lets
 * `reconcile` name every payment the database does not explain (docs/market.md "Guarantees"). A text memo of the
 * purpose could not do it (one purpose, many payouts). The receiver can check it: the sha256 of
 * `<its payment's tx hash>:<op index>:<purpose>` is the memo of what the escrow sent back for that payment.
 */
export function payoutMemoHash(obligationId: string): Buffer {
  return createHash("sha256").update(obligationId, "utf8").digest();
}

/** payoutMemoHash as 64 lower-case hex, as the payment stream stores hash memos. */
export const payoutMemoHex = (obligationId: string): string => payoutMemoHash(obligationId).toString("hex");

export interface Obligation {
  readonly paymentId: string;
  readonly purpose: Purpose;
  readonly destination: string;
  readonly amount: bigint;
}

export function obligationId(paymentId: string, purpose: Purpose): string {
  return `${paymentId}:${purpose}`;
}

/**
 * The escrow sends nothing smaller than this on its own (1 XLM, stroops): every payout costs the escrow a network
 * fee (100 stroops), so refunding dust automatically would let anyone drain the float one tiny payment at a time.
 * Such an obligation is written parked, for the operator to release (or keep, recorded) — never absorbed.
 */
export const DUST_THRESHOLD = 10_000_000n;

export const DUST_REASON = "dust: below 1 XLM, held instead of paying a network fee to send it";

/**
 * Records obligations (amounts of zero owe nothing and are skipped; dust is recorded parked); an existing one is
 * left as it is.
 */
export async function owe(tx: Db, obligations: readonly Obligation[], now: Date): Promise<void> {
  const rows = obligations
    .filter((o) => o.amount > 0n)
    .map((o) => ({
      id: obligationId(o.paymentId, o.purpose),
      paymentId: o.paymentId,
      purpose: o.purpose,
      destination: o.destination,
      amount: o.amount,
      ...(o.amount < DUST_THRESHOLD ? { state: "parked", parkedReason: DUST_REASON } : { state: "pending" }),
      createdAt: now,
      updatedAt: now,
    }));
  if (rows.length > 0) await tx.insert(marketPayouts).values(rows).onConflictDoNothing();
}
