// The `Billing watcher` status component (docs/api.md "GET /v1/status"): `cursorAgeSeconds` since the last completed poll (empty
// polls count) and `quarantined`, the payments waiting for an operator. Unknown before the first poll; degraded
// while anything is quarantined (money sits unapplied); lagging, then down, as the cursor ages — the rule both
// account watchers share (watchers/watcher-state.ts).
import { count, eq } from "drizzle-orm";
import { z } from "zod";
import { billingPayments, paymentCursors } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { cursorGapOf } from "../watchers/retention-gap.ts";
import { cursorAgeSeconds, gapField, RetentionGapField, watcherState } from "../watchers/watcher-state.ts";

/** The billing watcher's row in payment_cursors. */
export const BILLING_CURSOR = "billing";

/** What to run when the watcher's cursor is past the RPC's retention (watchers/retention-gap.ts). */
export const BILLING_CATCH_UP =
  "namereg billing catch-up --rpc <an archive RPC URL that holds those ledgers>";

export const BillingComponent = z.object({
  name: z.literal("Billing watcher"),
  state: z.enum(["operational", "lagging", "degraded", "down", "unknown"]),
  cursorAgeSeconds: z.number().int().nonnegative().nullable(),
  quarantined: z.number().int().nonnegative().nullable(),
  gap: RetentionGapField,
});

export type BillingComponentState = z.infer<typeof BillingComponent>;

export async function quarantinedCount(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(billingPayments)
    .where(eq(billingPayments.state, "quarantined"));
  return row?.n ?? 0;
}

export async function billingComponent(db: Db, now: Date): Promise<BillingComponentState> {
  const base = { name: "Billing watcher" as const };
  try {
    const [cursor] = await db
      .select({ polledAt: paymentCursors.polledAt })
      .from(paymentCursors)
      .where(eq(paymentCursors.name, BILLING_CURSOR));
    const quarantined = await quarantinedCount(db);
    const polledAt = cursor?.polledAt ?? null;
    if (polledAt === null) return { ...base, state: "unknown", cursorAgeSeconds: null, quarantined };
    const age = cursorAgeSeconds(polledAt, now);
    const gap = await cursorGapOf(db, BILLING_CURSOR);
    const state = gap === null ? watcherState(age, quarantined) : "down";
    return { ...base, state, cursorAgeSeconds: age, quarantined, ...gapField(gap, BILLING_CATCH_UP) };
  } catch {
    return { ...base, state: "unknown", cursorAgeSeconds: null, quarantined: null };
  }
}
