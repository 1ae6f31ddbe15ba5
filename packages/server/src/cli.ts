#!/usr/bin/env node
// The `namereg` command's process: the command (namereg.ts) with the process's own streams, environment and
// signals, then exit with its code. A serving command turns V8's allocation-site pretenuring off first
// (runtime/gc-tuning.ts). The rest is imported after drizzle-orm's imports are taken off Node's slow path
// (process/drizzle-resolution.ts), which a static import could not wait for.
import { resolveDrizzleDirectly } from "./process/drizzle-resolution.ts";

resolveDrizzleDirectly();
const { namereg } = await import("./namereg.ts");
const { processIo } = await import("./process/command-io.ts");
const { tuneGcForServing } = await import("./runtime/gc-tuning.ts");

const io = { ...processIo(), beforeServing: tuneGcForServing };

namereg(process.argv.slice(2), io).then(
  // The devnet, which runs as the devnet's own CLI, may set process.exitCode itself.
  (code) => process.exit(code === 0 ? (process.exitCode ?? 0) : code),
  (err: unknown) => {
    console.error(`namereg: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
