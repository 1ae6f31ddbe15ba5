import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { keepRunning } from "./keep-running.ts";

const logger = pino({ level: "silent" });

describe("keepRunning", () => {
  it("starts a run again after it ends or fails, until the signal", async () => {
    const stop = new AbortController();
    const ends: string[] = [];
    await keepRunning(
      "part",
      async () => {
        ends.push(ends.length % 2 === 0 ? "lock lost" : "failed");
        if (ends.length === 4) stop.abort();
        if (ends.length % 2 === 0) throw new Error("database went away");
      },
      { signal: stop.signal, logger, pauseMs: 1 },
    );
    expect(ends).toEqual(["lock lost", "failed", "lock lost", "failed"]);
  });

  it("does not start again once the signal is given during the pause", async () => {
    const stop = new AbortController();
    let runs = 0;
    const done = keepRunning(
      "part",
      async () => {
        runs++;
      },
      { signal: stop.signal, logger, pauseMs: 60_000 },
    );
    await new Promise((r) => setTimeout(r, 10));
    stop.abort();
    await done;
    expect(runs).toBe(1);
  });

  it("runs nothing when the signal was given before", async () => {
    const stop = new AbortController();
    stop.abort();
    let runs = 0;
    await keepRunning("part", async () => void runs++, { signal: stop.signal, logger });
    expect(runs).toBe(0);
  });
});
