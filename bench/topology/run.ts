// Topology suite at full size: `node bench/topology/run.ts [--seed 1] [--events 50000] [--limit 600]
// [--seconds 10] [--down 2] [--clients 4] [--stall 5000] [--standby-delay 2000] [--changes 50]`. Two `namereg
// serve` replicas and two `namereg index` processes on a private PostgreSQL cluster and Redis (suite.ts): the
// global rate limit across replicas, a SIGKILLed writer handing over, a SIGSTOPped writer losing its place within
// `--stall` ms (WRITER_STALL_TIMEOUT_MS), a cluster restart under load; with a hot standby applying transactions
// `--standby-delay` ms late and two more `serve` replicas reading it, the freshness of `--changes` changes
// (`--changes 0`: no standby). Prints the figures and exits 1 on any failure.
import { parseArgs } from "node:util";
import { runTopologySuite } from "./suite.ts";

const { values } = parseArgs({
  options: {
    seed: { type: "string", default: "1" },
    events: { type: "string", default: "50000" },
    limit: { type: "string", default: "600" },
    seconds: { type: "string", default: "10" },
    down: { type: "string", default: "2" },
    clients: { type: "string", default: "4" },
    stall: { type: "string", default: "5000" },
    "standby-delay": { type: "string", default: "2000" },
    changes: { type: "string", default: "50" },
  },
});
const started = performance.now();
const r = await runTopologySuite({
  seed: Number(values.seed),
  events: Number(values.events),
  rateLimit: Number(values.limit),
  loadSeconds: Number(values.seconds),
  downSeconds: Number(values.down),
  clients: Number(values.clients),
  stallTimeoutMs: Number(values.stall),
  ...(Number(values.changes) > 0
    ? { standby: { applyDelayMs: Number(values["standby-delay"]), changes: Number(values.changes) } }
    : {}),
  log: (line) => console.log(`[${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}`),
});
for (const f of r.failures) console.log(`FAILURE: ${f}`);
console.log(
  `${r.ok ? "OK" : "FAILED"} (seed ${r.seed}) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
if (!r.ok) process.exitCode = 1;
