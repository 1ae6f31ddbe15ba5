import { describe, expect, it } from "vitest";
import { retryAfterMs, verdictOf } from "./schedule.ts";

const SCHEDULE = [5_000, 300_000, 1_800_000];
const answer = (statusCode: number | null, retryAfter: number | null = null) => ({
  statusCode,
  retryAfterMs: retryAfter,
});

describe("what an attempt's outcome means", () => {
  it("delivers on any 2xx", () => {
    for (const code of [200, 201, 202, 204, 299])
      expect(verdictOf(answer(code), 1, SCHEDULE).kind).toBe("delivered");
  });

  it("retries 5xx, 429, 408 and no answer on the schedule, then gives up", () => {
    for (const code of [500, 502, 503, 599, 429, 408, null]) {
      expect(verdictOf(answer(code), 1, SCHEDULE)).toEqual({ kind: "retry", delayMs: 5_000 });
    }
    expect(verdictOf(answer(500), 2, SCHEDULE)).toEqual({ kind: "retry", delayMs: 300_000 });
    expect(verdictOf(answer(500), 3, SCHEDULE)).toEqual({ kind: "retry", delayMs: 1_800_000 });
    expect(verdictOf(answer(500), 4, SCHEDULE)).toEqual({
      kind: "give-up",
      reason: "no success after 4 attempts",
    });
  });

  it("disables on 410 and does not retry other answers (redirects are not followed)", () => {
    expect(verdictOf(answer(410), 1, SCHEDULE)).toEqual({ kind: "gone" });
    for (const code of [301, 302, 307, 400, 401, 403, 404, 422]) {
      expect(verdictOf(answer(code), 1, SCHEDULE)).toEqual({
        kind: "give-up",
        reason: `the receiver answered ${code}, which is not retried`,
      });
    }
  });

  it("honours Retry-After: never sooner than asked, up to 10 hours", () => {
    expect(verdictOf(answer(429, 60_000), 1, SCHEDULE)).toEqual({ kind: "retry", delayMs: 60_000 });
    expect(verdictOf(answer(503, 1_000), 2, SCHEDULE)).toEqual({ kind: "retry", delayMs: 300_000 });
    expect(verdictOf(answer(429, 86_400_000), 1, SCHEDULE)).toEqual({ kind: "retry", delayMs: 36_000_000 });
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    expect(retryAfterMs("120", now)).toBe(120_000);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMs("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBeNull();
    expect(retryAfterMs("soon", now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });
});
