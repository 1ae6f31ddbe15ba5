import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { logPassFailure } from "./pass-failures.ts";
import { RetentionGapError } from "./retention-gap.ts";
import { retryPause } from "./run-passes.ts";

describe("a watcher's failing passes", () => {
  it("are retried after a pause doubling from the poll interval to a minute", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 30].map((n) => retryPause(2000, n))).toEqual([
      2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000,
    ]);
    // A poll interval above the minute is never shortened.
    expect(retryPause(120_000, 3)).toBe(120_000);
  });

  it("are logged at warn with the pause; a retention gap at error when first recorded", () => {
    const lines: { level: number; msg: string; retryInMs?: number }[] = [];
    const log = logPassFailure(
      pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) }),
      "escrow watcher",
    );
    log(new Error("connect ECONNREFUSED"), 4000);
    const gap = { fromLedger: 3, toLedger: 18, since: new Date("2026-12-01T00:00:00Z") };
    log(new RetentionGapError("escrow watcher", gap, true, "namereg escrow catch-up --rpc <url>"), 2000);
    log(new RetentionGapError("escrow watcher", gap, false, "namereg escrow catch-up --rpc <url>"), 4000);
    expect(lines.map(({ level, msg, retryInMs }) => ({ level, msg, retryInMs }))).toEqual([
      { level: 40, msg: "escrow watcher pass failed; retrying", retryInMs: 4000 },
      {
        level: 50,
        msg: "the escrow watcher's cursor needs ledgers 3–18, which the RPC no longer holds (its retention starts at 19); nothing is judged until they are read: namereg escrow catch-up --rpc <url>",
        retryInMs: 2000,
      },
      { level: 40, msg: expect.stringContaining("needs ledgers 3–18"), retryInMs: 4000 },
    ]);
  });
});
