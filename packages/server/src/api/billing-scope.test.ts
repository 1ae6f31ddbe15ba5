import { describe, expect, it } from "vitest";
import type { Db } from "../db/types.ts";
import { billingScope } from "./billing-scope.ts";

// The flag alone is decided without the database; the subscription condition is exercised in
// routes/directory.integration.test.ts.
const reader = {} as Db;
const NOW = new Date("2026-03-01T12:00:00.000Z");
const filtered = (billing: { enabled: boolean; graceUntil: string | null }) =>
  billingScope(
    reader,
    { ...billing, account: null, pricePerPeriod: 1n, startLedger: null, pollMs: 1000 },
    NOW,
  ).filtered;

describe("billingScope", () => {
  it("does not filter while billing is disabled, whatever the grace", () => {
    expect(filtered({ enabled: false, graceUntil: null })).toBe(false);
    expect(filtered({ enabled: false, graceUntil: "2026-01-01T00:00:00.000Z" })).toBe(false);
  });

  it("does not filter within the grace, and filters from its end on", () => {
    expect(filtered({ enabled: true, graceUntil: "2026-03-01T12:00:00.001Z" })).toBe(false);
    expect(filtered({ enabled: true, graceUntil: "2026-03-01T12:00:00.000Z" })).toBe(true);
    expect(filtered({ enabled: true, graceUntil: "2026-02-01T00:00:00.000Z" })).toBe(true);
  });

  it("filters at once when enabled without a grace", () => {
    expect(filtered({ enabled: true, graceUntil: null })).toBe(true);
  });
});
