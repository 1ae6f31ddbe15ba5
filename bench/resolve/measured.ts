// The resolve bench's CPU figures: a load run with the CPU time its server process spent per request (from /proc),
// and two halves of one server's measurement (API–bare–bare–API within a round) as one.
import type { ChildProcess } from "node:child_process";
import { cpuSeconds } from "../lib/cpu.ts";
import type { Load } from "../lib/load.ts";

export type Measured = Load & { readonly cpu: number };

/** A load run with the CPU time (µs per request) its server spent, so a slow round shows whose it was. */
export async function measured(server: ChildProcess, run: () => Promise<Load>): Promise<Measured> {
  const before = cpuSeconds(server.pid ?? 0);
  const result = await run();
  return { ...result, cpu: ((cpuSeconds(server.pid ?? 0) - before) / result.requests) * 1e6 };
}

/** Two halves of one server's measurement as one: requests and CPU summed, the worse half's latencies. */
export function joined(a: Measured, b: Measured): Measured {
  const requests = a.requests + b.requests;
  return {
    requests,
    rps: (a.rps + b.rps) / 2,
    p50: Math.max(a.p50, b.p50),
    p99: Math.max(a.p99, b.p99),
    failed: a.failed + b.failed,
    cpu: (a.cpu * a.requests + b.cpu * b.requests) / requests,
  };
}
