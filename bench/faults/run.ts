// Fault suite at full size: `node bench/faults/run.ts [--seed 1] [--events 50000]`. Prints the figures and exits 1
// on any loss, any dishonest coverage or status, or a slow recovery (see suite.ts).
import { parseArgs } from "node:util";
import { runFaultSuite } from "./suite.ts";

const { values } = parseArgs({
  options: { seed: { type: "string", default: "1" }, events: { type: "string", default: "50000" } },
});
const r = await runFaultSuite({
  seed: Number(values.seed),
  events: Number(values.events),
  log: (line) => console.log(line),
});
const s = (x: number | null) => (x === null ? "never" : `${x.toFixed(1)} s`);
console.log(`seed ${r.seed}: ${r.events} events of the chain, ${r.archived} archived, lost ${r.lost}`);
console.log(
  `back-fill under the fault mix: ${r.backfillSeconds.toFixed(1)} s; ${r.statusPolls} status+coverage polls`,
);
console.log(
  `frozen head: not operational after ${s(r.frozenHead.notOperationalAfterSeconds)}, operational again ${s(r.frozenHead.recoveredAfterSeconds)} after`,
);
console.log(
  `error burst: not operational after ${s(r.errorBurst.notOperationalAfterSeconds)}, operational again ${s(r.errorBurst.recoveredAfterSeconds)} after`,
);
console.log(
  `shortened retention: ${r.retention.appended} names in hidden ledgers, gap listed ${s(r.retention.gapListedAfterSeconds)} after the restart, backfill filled ${r.retention.filled} gap(s) and left ${r.retention.remaining}, coverage complete ${s(r.retention.completeAfterSeconds)} after`,
);
console.log(`violations: ${r.violations.length === 0 ? "none" : r.violations.join("; ")}`);
console.log(r.ok ? "OK" : "FAILED");
if (!r.ok) process.exitCode = 1;
