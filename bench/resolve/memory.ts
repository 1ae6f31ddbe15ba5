// The resolve benchmark's memory figures of the API process: its RSS, its JavaScript heap in use after a full
// collection (the process runs with --expose-gc and answers a "memory" message, bench/resolve/server.ts) and its
// cache's entry count from /metrics.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

/** Resident set size of a process, in MiB (Linux /proc). */
function rssMiB(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/**
 * The API's RSS and its JavaScript heap in use after a full collection, in MiB. RSS alone cannot show growth: the
 * collector returns memory between two readings (it once came out at −143 MiB per 1M names).
 */
export async function memoryOf(child: ChildProcess, base: string): Promise<Memory> {
  const heap = await new Promise<number>((resolve, reject) => {
    child.once("message", (m) => resolve((m as { heapUsed: number }).heapUsed / 2 ** 20));
    if (!child.send("memory")) reject(new Error("the API process takes no messages"));
  });
  // The cache is what the heap holds per name; its size says how much of a difference is cache entries.
  const metrics = await (await fetch(new URL("/metrics", base))).text();
  const entries = Number(/^namereg_resolve_cache_entries (\d+)/m.exec(metrics)?.[1] ?? Number.NaN);
  return { rss: rssMiB(child.pid), heap, entries };
}

export interface Memory {
  readonly rss: number;
  readonly heap: number;
  readonly entries: number;
}
