import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/** Channel names are spliced into LISTEN statements, so only plain identifiers are accepted. */
export function checkChannel(channel: string): string {
  if (!CHANNEL.test(channel)) throw new Error(`invalid notification channel name ${JSON.stringify(channel)}`);
  return channel;
}

export function lockKey(key: bigint | number): bigint {
  const value = BigInt(key);
  if (value < -(2n ** 63n) || value >= 2n ** 63n) throw new RangeError("advisory lock key must fit in int8");
  return value;
}

/** A stable int8 lock key for a name, so each subsystem can name its lock instead of picking a number. */
export function advisoryLockKey(name: string): bigint {
  return createHash("sha256").update(name).digest().readBigInt64BE(0);
}

/** Resolves false instead of waiting past `ms` or throwing; health checks must answer. */
export async function withinTime(check: () => Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([check().then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
