// The `Escrow watcher` status component (docs/api.md "GET /v1/status"): `cursorAgeSeconds` since the last completed
// poll (empty polls count), `parkedPayouts` waiting for the operator. Unknown before the first poll; degraded
// while anything is parked; lagging, then down, as the cursor ages.
import { count, eq } from "drizzle-orm";
import { z } from "zod";
import { marketPayments, marketPayouts, paymentCursors } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { cursorGapOf } from "../watchers/retention-gap.ts";
import { cursorAgeSeconds, gapField, RetentionGapField, watcherState } from "../watchers/watcher-state.ts";

/** The escrow watcher's row in payment_cursors. */
export const ESCROW_CURSOR = "escrow";

/** What to run when the watcher's cursor is past the RPC's retention (watchers/retention-gap.ts). */
export const ESCROW_CATCH_UP = "namereg escrow catch-up --rpc <an archive RPC URL that holds those ledgers>";

export const EscrowComponent = z.object({
  name: z.literal("Escrow watcher"),
  state: z.enum(["operational", "lagging", "degraded", "down", "unknown"]),
  cursorAgeSeconds: z.number().int().nonnegative().nullable(),
  parkedPayouts: z.number().int().nonnegative().nullable(),
  gap: RetentionGapField,
});

export type EscrowComponentState = z.infer<typeof EscrowComponent>;

export async function escrowComponent(db: Db, now: Date): Promise<EscrowComponentState> {
  const base = { name: "Escrow watcher" as const };
  try {
    const [cursor] = await db
      .select({ polledAt: paymentCursors.polledAt })
      .from(paymentCursors)
      .where(eq(paymentCursors.name, ESCROW_CURSOR));
    const [payouts] = await db
      .select({ n: count() })
      .from(marketPayouts)
      .where(eq(marketPayouts.state, "parked"));
    const [payments] = await db
      .select({ n: count() })
      .from(marketPayments)
      .where(eq(marketPayments.state, "parked"));
    const parked = (payouts?.n ?? 0) + (payments?.n ?? 0);
    const polledAt = cursor?.polledAt ?? null;
    if (polledAt === null)
      return { ...base, state: "unknown", cursorAgeSeconds: null, parkedPayouts: parked };
    const age = cursorAgeSeconds(polledAt, now);
    const gap = await cursorGapOf(db, ESCROW_CURSOR);
    const state = gap === null ? watcherState(age, parked) : "down";
    return {
      ...base,
      state,
      cursorAgeSeconds: age,
      parkedPayouts: parked,
      ...gapField(gap, ESCROW_CATCH_UP),
    };
  } catch {
    return { ...base, state: "unknown", cursorAgeSeconds: null, parkedPayouts: null };
  }
}
