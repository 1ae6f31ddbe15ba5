import { describe, expect, it } from "vitest";
import { cursorAgeSeconds, watcherState } from "./watcher-state.ts";

describe("an account watcher's status", () => {
  it("ages its cursor in whole seconds, never below zero", () => {
    const polled = new Date("2026-11-23T12:00:00.000Z");
    expect(cursorAgeSeconds(polled, new Date("2026-11-23T12:00:59.999Z"))).toBe(59);
    expect(cursorAgeSeconds(polled, new Date("2026-11-23T11:59:58.000Z"))).toBe(0);
  });

  it("is lagging after a minute, down after two, and degraded while money waits unless it is down", () => {
    expect([0, 60, 61, 120, 121].map((age) => watcherState(age, 0))).toEqual([
      "operational",
      "operational",
      "lagging",
      "lagging",
      "down",
    ]);
    expect([0, 61, 121].map((age) => watcherState(age, 2))).toEqual(["degraded", "degraded", "down"]);
  });
});
