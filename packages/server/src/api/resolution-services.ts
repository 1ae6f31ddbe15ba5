// The resolve cache (kept right by the indexer's change notifications), the resolution counter and the expiry
// clock: built once per app, so every area that resolves names (resolution, federation) shares one of each, and
// stopped when the app closes.
import type { FastifyInstance } from "fastify";
import type { Database } from "../db/types.ts";
import type { ChainHeadSource } from "./chain-head.ts";
import { ExpiryClock } from "./expiry-clock.ts";
import { ResolutionCounter } from "./resolution-counter.ts";
import { ResolveCache, type ResolveCacheOptions, wireInvalidation } from "./resolve-cache.ts";

export interface ResolutionServices {
  readonly cache: ResolveCache;
  readonly counter: ResolutionCounter;
  readonly clock: ExpiryClock;
}

export async function resolutionServicesOf(
  app: FastifyInstance,
  deps: {
    readonly db: Database;
    readonly chain: ChainHeadSource | undefined;
    readonly now: () => Date;
    readonly cache?: ResolveCacheOptions;
  },
): Promise<ResolutionServices> {
  const cache = new ResolveCache(deps.cache);
  const counter = new ResolutionCounter(deps.db.db, app.log);
  const clock = new ExpiryClock({ db: deps.db.replica, chain: deps.chain, now: deps.now, log: app.log });
  const subscription = await wireInvalidation(cache, deps.db, app.log);
  await clock.start();
  counter.start();
  app.addHook("onClose", async () => {
    clock.stop();
    await subscription?.close().catch(() => {});
    await counter.close();
  });
  return { cache, counter, clock };
}
