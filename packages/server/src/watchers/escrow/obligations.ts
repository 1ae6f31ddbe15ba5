// Obligations are written in the transaction that takes the verdict, before anything is sent. Their ids are
// `<payment id>:<purpose>`, so replaying a verdict (after a crash between deciding and committing, or twice by
// mistake) can never create a second obligation for the same money.
import { marketPayouts } from "../../db/tables.ts";
import type { Db } from "../../db/types.ts";

export const PURPOSES = ["seller", "refund", "surplus", "bounce", "slash", "bond_return", "release"] as const;
export type Purpose = (typeof PURPOSES)[number];

export interface Obligation {
  readonly paymentId: string;
  readonly purpose: Purpose;
  readonly destination: string;
  readonly amount: bigint;
}

export function obligationId(paymentId: string, purpose: Purpose): string {
  return `${paymentId}:${purpose}`;
}

/** Records obligations (amounts of zero owe nothing and are skipped); an existing one is left as it is. */
export async function owe(tx: Db, obligations: readonly Obligation[], now: Date): Promise<void> {
  const rows = obligations
    .filter((o) => o.amount > 0n)
    .map((o) => ({
      id: obligationId(o.paymentId, o.purpose),
      paymentId: o.paymentId,
      purpose: o.purpose,
      destination: o.destination,
      amount: o.amount,
      state: "pending",
      createdAt: now,
      updatedAt: now,
    }));
  if (rows.length > 0) await tx.insert(marketPayouts).values(rows).onConflictDoNothing();
}
