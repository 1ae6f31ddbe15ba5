// `namereg webhooks deliver`: the webhook deliverer on its own (docs/operations.md "Webhooks"); `namereg start`
// and `namereg dev` run the same deliverer in process.
import type { CommandIo } from "../process/command-io.ts";
import { openRuntime } from "../process/runtime.ts";
import { runDelivererProcess } from "./deliverer-process.ts";

export const WEBHOOKS_USAGE = `usage: namereg webhooks <command>

  deliver    run the webhook deliverer only (one per database; others wait as standbys)`;

export async function webhooksCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const [sub] = args;
  if (sub !== "deliver") {
    io.err(WEBHOOKS_USAGE);
    return 1;
  }
  const rt = await openRuntime("deliver", io, { command: "namereg webhooks deliver" });
  const { signal } = io.untilStopped();
  await runDelivererProcess({ config: rt.config, database: rt.database, logger: rt.logger, signal });
  await rt.database.close();
  return 0;
}
