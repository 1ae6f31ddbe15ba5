// The fault suite's short seeded variant (suite.ts; the full run is bench/faults/run.ts): 1,500 bulk events
// (some 16 pages of 97 under the mix's truncation, each request drawing its seeded fault) back-filled under the
// provider fault mix, then a frozen head, an error burst and shortened retention.
import { BACKSTOP_MS } from "@namereg/server/testing";
import { expect, it } from "vitest";
import { runFaultSuite } from "./suite.ts";

// The back-fill under the mix is bounded by its progress (suite.ts); Vitest's timeout is only the backstop.

it(
  "loses nothing and reports status honestly under seeded provider faults",
  async () => {
    const r = await runFaultSuite({ seed: 3, events: 1_500 });
    expect(r.lost).toBe(0);
    expect(r.retention.appended).toBe(30);
    expect(r.archived).toBe(r.events + r.retention.appended);
    expect(r.violations).toEqual([]);
    expect(r.frozenHead.notOperationalAfterSeconds).not.toBeNull();
    expect(r.errorBurst.notOperationalAfterSeconds).not.toBeNull();
    expect(r.frozenHead.recoveredAfterSeconds).not.toBeNull();
    expect(r.errorBurst.recoveredAfterSeconds).not.toBeNull();
    expect(r.retention.gapListedAfterSeconds).not.toBeNull();
    expect(r.retention.filled).toBeGreaterThan(0);
    expect(r.retention.remaining).toBe(0);
    expect(r.retention.completeAfterSeconds).not.toBeNull();
    expect(r.ok).toBe(true);
  },
  BACKSTOP_MS,
);
