// The loop both account-payment watchers run: a pass, then a pause that an abort cuts short; a failed pass is
// reported and the next one tries again.
export async function runPasses(
  signal: AbortSignal,
  pass: () => Promise<unknown>,
  opts: { pollMs: number; onError?: (err: unknown) => void },
): Promise<void> {
  while (!signal.aborted) {
    try {
      await pass();
    } catch (err) {
      opts.onError?.(err);
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, opts.pollMs);
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
