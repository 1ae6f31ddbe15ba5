// How an account-payment watcher (billing, escrow) reports in /v1/status (docs/api.md "GET /v1/status"): it polls every few seconds,
// so a minute without a completed poll is late and two minutes is dead (the indexer's staleness limit), and money
// waiting for an operator (quarantined or parked) degrades it — unless it is down, which says more.
import { z } from "zod";
import type { CursorGap } from "./retention-gap.ts";

export const WATCHER_LAGGING_SECONDS = 60;
export const WATCHER_DOWN_SECONDS = 120;

export type WatcherState = "operational" | "lagging" | "degraded" | "down";

/** Whole seconds since the last completed poll, never negative (clocks of two hosts may disagree). */
export function cursorAgeSeconds(polledAt: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - polledAt.getTime()) / 1000));
}

/** The state of a watcher whose last poll is `ageSeconds` old with `waiting` items held for an operator. */
export function watcherState(ageSeconds: number, waiting: number): WatcherState {
  if (ageSeconds > WATCHER_DOWN_SECONDS) return "down";
  if (waiting > 0) return "degraded";
  if (ageSeconds > WATCHER_LAGGING_SECONDS) return "lagging";
  return "operational";
}

/**
 * Shown on a watcher's component while its cursor is past the RPC's retention (watchers/retention-gap.ts): the
 * ledgers it needs and what to run. The watcher judges nothing meanwhile, so the component is `down`.
 */
export const RetentionGapField = z
  .object({
    fromLedger: z.number().int().nonnegative(),
    toLedger: z.number().int().nonnegative(),
    since: z.iso.datetime(),
    recovery: z.string(),
  })
  .optional();

export function gapField(
  gap: CursorGap | null,
  recovery: string,
): { gap?: z.infer<typeof RetentionGapField> } {
  if (gap === null) return {};
  return {
    gap: { fromLedger: gap.fromLedger, toLedger: gap.toLedger, since: gap.since.toISOString(), recovery },
  };
}
