// Waiting in the topology suite (suite.ts and its checks): until a condition holds or a value can be read, with
// a limit; a check can give up at once.
/** Thrown by a check to stop waiting at once. */
export class GaveUp extends Error {}

export async function until(check: () => boolean, what: string, ms = 120_000): Promise<void> {
  return untilAsync(async () => check(), what, ms);
}

export async function untilAsync(check: () => Promise<boolean>, what: string, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (
      await check().catch((err: unknown) => {
        if (err instanceof GaveUp) throw err;
        return false;
      })
    )
      return;
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function untilValue<T>(read: () => Promise<T>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      return await read();
    } catch (err) {
      if (Date.now() > end) throw err;
      await sleep(20);
    }
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
