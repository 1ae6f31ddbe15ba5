// CPU time of processes from /proc (Linux), so a benchmark can split the CPU of a run between the processes
// sharing the machine's cores: on two saturated cores the events/s figure alone cannot say which one to shrink.
import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc's utime/stime; 100 on every Linux the benches run on (`getconf CLK_TCK`). */
const TICKS = 100;

/** User + system CPU seconds `pid` has used so far; 0 when it is gone or /proc is unreadable. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces and parentheses; the fields after its closing ')' are fixed.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** CPU seconds of several processes, summed. */
export function totalCpuSeconds(pids: Iterable<number>): number {
  let sum = 0;
  for (const pid of pids) sum += cpuSeconds(pid);
  return sum;
}
