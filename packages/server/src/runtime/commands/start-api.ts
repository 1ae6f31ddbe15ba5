// The API listener the serving commands (serve, start, dev) start on an opened runtime (runtime.ts).
import { coalescedHead } from "../../api/chain-head.ts";
import { type App, type AppDeps, buildApp } from "../../api/index.ts";
import { ChainClient } from "../../chain/chain-client.ts";
import { RpcClient } from "../../chain/rpc-client.ts";
import type { ServiceMetrics } from "../../metrics/service-metrics.ts";
import type { Runtime } from "../../process/runtime.ts";

/** What a command adds to the app beyond its configuration: `namereg dev`'s Demo wallet. */
export type ApiExtras = Pick<AppDeps, "demoWallet">;

export async function startApi(
  rt: Runtime,
  metrics?: ServiceMetrics,
  extras: ApiExtras = {},
): Promise<{ app: App; url: string }> {
  const { config } = rt;
  const rpc =
    config.chain.rpcUrl === null ? null : new RpcClient(config.chain.rpcUrl, { retries: 0, timeoutMs: 2000 });
  const { rpcUrl, networkPassphrase } = config.chain;
  const app = await buildApp({
    config,
    db: rt.database,
    logger: rt.logger,
    ...extras,
    ...(metrics === undefined ? {} : { metrics }),
    ...(rpc === null ? {} : { chain: coalescedHead({ head: () => rpc.getLatestLedger() }) }),
    ...(rpcUrl === null || networkPassphrase === null
      ? {}
      : { chainClient: new ChainClient(rpcUrl, networkPassphrase) }),
  });
  const url = await app.listen({ port: config.port, host: config.host });
  return { app, url };
}
