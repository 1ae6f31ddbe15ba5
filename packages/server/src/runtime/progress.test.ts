import type { Logger } from "pino";
import { describe, expect, it } from "vitest";
import type { BatchInfo } from "../indexer/indexer.ts";
import { progressReporter } from "./progress.ts";

const batch = (nextLedger: number, latestLedger: number): BatchInfo =>
  ({
    events: 10,
    archived: 10,
    deadLettered: 0,
    fromLedger: nextLedger - 1,
    nextLedger,
    latestLedger,
  }) as BatchInfo;

function logged() {
  const lines: string[] = [];
  const logger = { info: (_fields: unknown, msg: string) => lines.push(msg) } as unknown as Logger;
  return { lines, logger };
}

describe("indexer progress", () => {
  it("says caught up once on reaching the head, not once a ledger, and reports again after falling behind", () => {
    const { lines, logger } = logged();
    let t = 0;
    const report = progressReporter({ logger, tty: false, intervalMs: 5000, now: () => t });
    report(batch(50, 100)); // behind: the first line is logged
    t = 1000;
    report(batch(80, 100)); // within the interval: quiet
    report(batch(101, 100)); // at the head
    for (let ledger = 102; ledger < 110; ledger++) report(batch(ledger, ledger - 1)); // idle at the head
    t = 60_000;
    report(batch(110, 200)); // behind again
    expect(lines).toEqual(["indexer back-filling", "indexer caught up", "indexer back-filling"]);
  });

  it("on a terminal, ends the status line once at the head", () => {
    const { logger } = logged();
    let out = "";
    const report = progressReporter({
      logger,
      tty: true,
      write: (line) => {
        out += line;
      },
      now: () => 0,
    });
    report(batch(50, 100));
    report(batch(101, 100));
    report(batch(102, 101));
    report(batch(103, 102));
    expect(out.split("\n")).toHaveLength(2);
    expect(out.match(/\rindexing ledger/g)).toHaveLength(2);
  });
});
