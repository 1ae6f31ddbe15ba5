// The loop both account-payment watchers run: a pass, then a pause that an abort cuts short. A failed pass is
// reported and tried again after a pause that doubles with each failure in a row (from the poll interval up to
// RETRY_MAX_MS), so an RPC or a database that is down is asked a few times a minute, not every poll.

/** The longest pause between failing passes. */
export const RETRY_MAX_MS = 60_000;

export async function runPasses(
  signal: AbortSignal,
  pass: () => Promise<unknown>,
  opts: { pollMs: number; onError?: (err: unknown, retryInMs: number) => void },
): Promise<void> {
  let failures = 0;
  while (!signal.aborted) {
    let pause = opts.pollMs;
    try {
      await pass();
      failures = 0;
    } catch (err) {
      failures++;
      pause = retryPause(opts.pollMs, failures);
      opts.onError?.(err, pause);
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pause);
      signal.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }
}

/** The pause after `failures` failing passes in a row: the poll interval, doubled each time, at most a minute. */
export function retryPause(pollMs: number, failures: number): number {
  return Math.min(Math.max(pollMs, RETRY_MAX_MS), pollMs * 2 ** Math.min(failures - 1, 20));
}
