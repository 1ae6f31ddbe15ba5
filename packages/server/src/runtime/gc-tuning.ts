// V8 settings for the processes that serve HTTP, applied once at start.
import { setFlagsFromString } from "node:v8";

/**
 * Turns off V8's allocation-site pretenuring. Under sustained load about four API processes in ten (same code,
 * started alike) let V8 decide, from the survival rates of their first busy seconds (the cache warming up), to
 * allocate node's per-request objects straight into the old generation. From then on every scavenge keeps what
 * those dead-but-old objects point to: a third of all young allocation survives instead of ~1.5%, scavenges pause
 * 20–40 ms instead of 1–3 ms, RSS sits near 550 MiB instead of 370 and resolve runs at half speed, for the
 * process's whole life (a full collection does not undo it). With pretenuring off, 0 of 24 processes did
 * (bench/HISTORY.md). Set it before the process does anything else (the CLI does, before its command runs), so no
 * pretenuring decision is taken first: `dev` serves its in-process devnet's RPC over HTTP before the API starts.
 */
export function tuneGcForServing(): void {
  setFlagsFromString("--no-allocation-site-pretenuring");
}
