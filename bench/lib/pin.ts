// CPU pinning for the benchmarks (`taskset`, util-linux): on a 2-core machine the load generator, the server under
// test and its baseline otherwise share both cores, and the ratios moved 0.57–0.91 run to run (bench/HISTORY.md).
// Pinned, the load generator (this process and what it spawns, wrk included) owns one core and each server under
// test owns the other while it is measured. PostgreSQL is a shared service and stays unpinned: the benches warm it
// first and it is idle during the cache-hit runs; the output says so.
import { execFileSync } from "node:child_process";
import { availableParallelism } from "node:os";

export interface Pinning {
  /** The CPU list of the load generator (this process and its descendants spawned before a server is pinned). */
  readonly load: string;
  /** The CPU list every server under test is moved to. */
  readonly server: string;
  /** One line for the output. */
  readonly describe: string;
}

function hasTaskset(): boolean {
  try {
    execFileSync("taskset", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** `taskset -a -p -c <cpus> <pid>`: every thread of the process, and threads it starts later inherit it. */
export function pinProcess(pid: number, cpus: string): void {
  execFileSync("taskset", ["-a", "-p", "-c", cpus, String(pid)], { stdio: "ignore" });
}

/**
 * Pins this process (the load generator) to the first CPU and returns where servers go, or null (with the reason
 * in `why`) when pinning is off, `taskset` is missing or the machine has one CPU.
 */
export function pinLoadGenerator(wanted: boolean): Pinning | { readonly why: string } {
  if (!wanted) return { why: "pinning off (--pin=false): load generator and servers share every core" };
  if (!hasTaskset()) return { why: "taskset not installed (util-linux): not pinned" };
  const cpus = availableParallelism();
  if (cpus < 2) return { why: `${cpus} CPU: nothing to separate, not pinned` };
  const load = "0";
  const server = cpus === 2 ? "1" : `1-${cpus - 1}`;
  pinProcess(process.pid, load);
  return {
    load,
    server,
    describe: `load generator (this process, wrk) on CPU ${load}; each server under test on CPU ${server}; PostgreSQL unpinned (shared service, warmed)`,
  };
}
