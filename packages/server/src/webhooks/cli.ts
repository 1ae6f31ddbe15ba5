// `namereg webhooks deliver`: the webhook deliverer on its own (docs/operations.md "Webhooks"); `namereg start`
// and `namereg dev` run the same deliverer in process.
import { openRuntime } from "../process/runtime.ts";
import { untilSignal } from "../process/until-signal.ts";
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
  const { signal } = untilSignal();
  await runDelivererProcess({ config: rt.config, database: rt.database, logger: rt.logger, signal });
  await rt.database.close();
}
