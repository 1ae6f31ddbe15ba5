// The kill suite's short seeded variant: 3,000 bulk events, 3 SIGKILLs of `namereg index`, then every table the
// indexer writes equals an uninterrupted run's (suite.ts; the full run is bench/kill/run.ts). Three kill points
// (seeded over the back-fill) are the fewest that still land before, inside and late in it; each costs a cold start.
import { BACKSTOP_MS } from "@namereg/server/testing";
import { expect, it } from "vitest";
import { runKillSuite } from "./suite.ts";

// Its waits fail when the back-fill stops moving (suite.ts, `until`); Vitest's timeout is only the backstop.

it(
  "loses and duplicates nothing across 3 seeded SIGKILLs of the indexer",
  async () => {
    const r = await runKillSuite({ seed: 7, events: 3_000, kills: 3 });
    expect(r.kills).toBe(3);
    // At least one kill came before the back-fill was through. At this size a stream's back-fill is one page
    // (10,000 events), so a kill lands in start-up or first batch, or after the whole: none between batches.
    expect(r.archivedAtKills.some((n) => n < r.reference)).toBe(true);
    expect(r.lost).toBe(0);
    expect(r.duplicated).toBe(0);
    expect(r.archived).toBe(r.reference);
    expect(r.reference).toBeGreaterThanOrEqual(3_000);
    expect(r.tables.filter((t) => !t.equal)).toEqual([]);
    expect(r.tables.find((t) => t.table === "names")?.rows).toBeGreaterThan(0);
    expect(r.ok).toBe(true);
  },
  BACKSTOP_MS,
);
