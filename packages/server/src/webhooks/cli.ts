// `namereg webhooks deliver`: the webhook deliverer on its own (docs/operations.md "Webhooks"); `namereg start`
// and `namereg dev` run the same deliverer in process.

import { ServiceMetrics } from "../metrics/service-metrics.ts";
import { runObserved } from "../process/metrics-listener.ts";
import { openRuntime } from "../process/runtime.ts";
import { runDelivererProcess } from "./deliverer-process.ts";
import { registerDelivererGauges } from "./metrics.ts";

export const WEBHOOKS_USAGE = `usage: namereg webhooks <command>

  deliver    run the webhook deliverer only (one per database; others wait as standbys)`;

export async function webhooksCommand(args: readonly string[]): Promise<void> {
  const [sub] = args;
  if (sub !== "deliver") {
    console.error(WEBHOOKS_USAGE);
    process.exitCode = 1;
    return;
  }
  const rt = await openRuntime("deliver", process.env, "namereg webhooks deliver");
  const metrics = new ServiceMetrics();
  registerDelivererGauges(metrics.registry, rt.database.replica, () => new Date());
  await runObserved(rt, metrics.registry, (signal) =>
    runDelivererProcess({ config: rt.config, database: rt.database, logger: rt.logger, signal, metrics }),
  );
}
