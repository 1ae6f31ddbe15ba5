import type { Env } from "../../config/index.ts";
import { openRuntime } from "../../process/runtime.ts";

export async function migrateCommand(env?: Env): Promise<void> {
  const rt = await openRuntime("migrate", env);
  rt.logger.info("migrations applied");
  await rt.database.close();
}
