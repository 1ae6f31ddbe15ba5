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
    // Every kill came before the back-fill was through, and the last one after some of it was archived.
    expect(r.archivedAtKills.filter((n) => n >= r.reference)).toEqual([]);
    expect(r.archivedAtKills.at(-1)).toBeGreaterThan(0);
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
