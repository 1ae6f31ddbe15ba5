// `namereg webhooks deliver`: the webhook deliverer on its own (docs/operations.md "Webhooks"); `namereg start`
// and `namereg dev` run the same deliverer in process.

import { runObserved } from "../runtime/commands/metrics-listener.ts";
import { openRuntime } from "../runtime/commands/runtime.ts";
import { runDelivererProcess } from "./deliverer-process.ts";

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
  await runObserved(rt, ({ signal, metrics }) =>
    runDelivererProcess({ config: rt.config, database: rt.database, logger: rt.logger, signal, metrics }),
  );
}
