// What route plugins are given: one type for every area. A plugin names the part it uses with `Pick`, so it
// can be registered on its own in a test; the app builds the whole once and hands every area the same.
import type { ChainClient } from "../chain/chain-client.ts";
import type { SubmitOptions } from "../chain/submit.ts";
import type { Config } from "../config/index.ts";
import type { Database } from "../db/types.ts";
import type { ChainHeadSource } from "./chain-head.ts";
import type { ResolutionServices } from "./resolution-services.ts";
import type { SharedLimits } from "./shared-limits.ts";

export interface RouteDeps {
  readonly config: Config;
  readonly db: Database;
  /** The service RPC's view of the chain head; undefined: no RPC (reported as down). */
  readonly chain: ChainHeadSource | undefined;
  /** Live contract reads, preparing and submitting; undefined: no RPC (503 chain_unavailable). */
  readonly chainClient: ChainClient | undefined;
  /** The clock freshness is judged by. */
  readonly now: () => Date;
  /** The resolve cache, resolution counter and expiry clock, shared by every area that resolves names. */
  readonly resolution: ResolutionServices;
  /** The shared rate limits' health (REDIS_URL set), for their status component; undefined: counted per process. */
  readonly rateLimits?: Pick<SharedLimits, "component">;
  /** Polling of submitted transactions; default that of submitSigned. */
  readonly submit?: SubmitOptions;
}
