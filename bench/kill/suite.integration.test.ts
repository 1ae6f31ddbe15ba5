// The kill suite's short seeded variant: 5,000 bulk events, 5 SIGKILLs of `namereg index`, then every table the
// indexer writes equals an uninterrupted run's (suite.ts; the full run is bench/kill/run.ts).
import { BACKSTOP_MS } from "@namereg/server/testing";
import { expect, it } from "vitest";
import { runKillSuite } from "./suite.ts";

// Its waits fail when the back-fill stops moving (suite.ts, `until`); Vitest's timeout is only the backstop.

it(
  "loses and duplicates nothing across 5 seeded SIGKILLs of the indexer",
  async () => {
    const r = await runKillSuite({ seed: 7, events: 5_000, kills: 5 });
    expect(r.kills).toBe(5);
    expect(r.lost).toBe(0);
    expect(r.duplicated).toBe(0);
    expect(r.archived).toBe(r.reference);
    expect(r.reference).toBeGreaterThanOrEqual(5_000);
    expect(r.tables.filter((t) => !t.equal)).toEqual([]);
    expect(r.tables.find((t) => t.table === "names")?.rows).toBeGreaterThan(0);
    expect(r.ok).toBe(true);
  },
  BACKSTOP_MS,
);
