import type { FastifyBaseLogger } from "fastify";
import { Redis } from "ioredis";
import { redactUrl } from "../config/database-url.ts";

/**
 * Connects before returning, so a wrong REDIS_URL stops startup. Later outages fail fast instead of queueing
 * commands, so a request never waits on a dead Redis; the client keeps reconnecting meanwhile. Outages are
 * reported (once each) by the rate limits that use it (shared-limits.ts).
 */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
  });
  // Without a listener an error event would crash the process; every reconnect attempt emits one.
  redis.on("error", () => undefined);
  redis.on("ready", () => log.debug("redis connected"));
  try {
    await redis.connect();
  } catch (error) {
    // connect() rejects but the client would go on retrying in the background.
    redis.disconnect();
    throw new Error(`cannot connect to Redis at ${redactUrl(url)}`, { cause: error });
  }
  return redis;
}

/**
 * Closes the connection whatever Redis does: QUIT when it answers within `timeoutMs`, else the socket is simply
 * dropped. An unreachable Redis refuses QUIT at once (no offline queue) and a frozen one never answers it; a
 * shutdown waits for neither, and fails on neither (docs/operations.md: SIGTERM exits 0).
 */
export async function closeRedis(redis: Redis, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  try {
    if (redis.status === "ready") await Promise.race([redis.quit().catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
    redis.disconnect();
  }
}
