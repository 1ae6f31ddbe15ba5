// Durations as operators write them in the environment (WEBHOOK_RETRY_SCHEDULE, WEBHOOK_DISABLE_AFTER).

/** One duration, `<n>ms|s|m|h|d`: 500ms, 5s, 5m, 2h, 5d. */
const DURATION = /^(\d{1,9})(ms|s|m|h|d)$/;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration in milliseconds from `<n>ms|s|m|h|d`; null when it is not one. */
export function durationMs(raw: string): number | null {
  const match = DURATION.exec(raw.trim());
  if (match === null) return null;
  return Number(match[1]) * (UNIT_MS[match[2] as string] ?? 0);
}
