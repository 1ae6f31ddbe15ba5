// Kill suite at full size: `node bench/kill/run.ts [--seed 1] [--events 200000] [--kills 50]`. Prints the figures
// and exits 1 on any difference from the uninterrupted run (see suite.ts).
import { parseArgs } from "node:util";
import { runKillSuite } from "./suite.ts";

const { values } = parseArgs({
  options: {
    seed: { type: "string", default: "1" },
    events: { type: "string", default: "200000" },
    kills: { type: "string", default: "50" },
  },
});
const started = performance.now();
const r = await runKillSuite({
  seed: Number(values.seed),
  events: Number(values.events),
  kills: Number(values.kills),
  log: (line) => console.log(line),
});
console.log(`seed ${r.seed}: ${r.events} bulk events, ${r.kills} SIGKILLs of namereg index`);
console.log(
  `archive: ${r.archived} events (uninterrupted run: ${r.reference}); lost ${r.lost}, duplicated ${r.duplicated}`,
);
for (const t of r.tables)
  console.log(`  ${t.table.padEnd(24)} ${String(t.rows).padStart(8)} rows  equal ${t.equal ? "yes" : "NO"}`);
console.log(`${r.ok ? "OK" : "FAILED"} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (!r.ok) process.exitCode = 1;
