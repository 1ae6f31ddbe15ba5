import type { CommandIo } from "../../process/command-io.ts";
import { openRuntime } from "../../process/runtime.ts";

export async function migrateCommand(io: CommandIo): Promise<number> {
  const rt = await openRuntime("migrate", io);
  rt.logger.info("migrations applied");
  await rt.database.close();
  return 0;
}
