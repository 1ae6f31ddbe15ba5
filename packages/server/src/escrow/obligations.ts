// Obligations are written in the transaction that takes the verdict, before anything is sent. Their ids are
// `<payment id>:<purpose>`, so replaying a verdict (after a crash between deciding and committing, or twice by
// mistake) can never create a second obligation for the same money. The operator's fee withdrawals are the one
// kind no payment causes: `fee:<request id>` (fees.ts), idempotent by the id the operator gives.
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

/** The text memo of a payout (28 bytes at most): says what the escrow paid, so a recipient can tell. */
export function payoutMemo(purpose: string): string {
  return `namereg escrow ${purpose === "fee_withdrawal" ? "fees" : purpose}`.slice(0, 28);
}

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
