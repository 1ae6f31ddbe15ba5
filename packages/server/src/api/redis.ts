import type { FastifyBaseLogger } from "fastify";
import { Redis } from "ioredis";
import { redactUrl } from "../config/database-url.ts";

/**
 * Connects before returning, so a wrong REDIS_URL stops startup. Later outages fail fast instead of queueing
 * commands, so a request never waits on a dead Redis; the client keeps reconnecting meanwhile.
 */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
  });
  // Every reconnect attempt fails with an error event; one line per outage is enough.
  let up = true;
  redis.on("error", (error: Error) => {
    if (!up) return;
    up = false;
    log.warn({ err: error }, "redis unreachable: rate limits are not enforced until it is back");
  });
  redis.on("ready", () => {
    if (up) return;
    up = true;
    log.info("redis reachable again");
  });
  try {
    await redis.connect();
  } catch (error) {
    // connect() rejects but the client would go on retrying in the background.
    redis.disconnect();
    throw new Error(`cannot connect to Redis at ${redactUrl(url)}`, { cause: error });
  }
  up = true;
  return redis;
}
