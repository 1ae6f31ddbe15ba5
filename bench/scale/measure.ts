// A fixed number of requests at a fixed concurrency, each timed on its own, so a route's p50/p95 come from the
// same count of answers at every size (a timed run would count fewer answers from the slower size). wrk and
// autocannon report only their own percentiles over a duration; this needs per-request times of a few thousand
// requests, which fetch measures well enough next to queries of a millisecond or more.

export interface Latency {
  readonly count: number;
  /** Milliseconds. */
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
}

export function percentiles(times: number[]): Latency {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? Number.NaN };
}

/**
 * Runs `work(i)` for i = 0..count-1, `concurrency` at a time, and returns each run's time. A run that throws
 * fails the measurement: a figure over errors would measure the error path.
 */
export async function timed(
  count: number,
  concurrency: number,
  work: (i: number) => Promise<void>,
): Promise<Latency> {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t = performance.now();
      await work(i);
      times.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return percentiles(times);
}

/** `count` GETs of `paths` (in turn, wrapping) against `base`; every answer must be 200. */
export function getAll(base: string, paths: readonly string[], count: number, concurrency: number) {
  return timed(count, concurrency, async (i) => {
    const path = paths[i % paths.length] as string;
    const res = await fetch(new URL(path, base));
    const body = await res.text();
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${body.slice(0, 200)}`);
  });
}
