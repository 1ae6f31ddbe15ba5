#!/usr/bin/env node
// The `namereg` command.
import { runDevnetCli } from "@namereg/devnet";

const [command = "help", ...rest] = process.argv.slice(2);

const PLANNED = ["dev", "start", "serve", "index", "migrate"];
const USAGE = `usage: namereg <dev|start|serve|index|migrate|devnet> [options]`;

async function main(): Promise<void> {
  if (command === "help" || command === "--help") {
    console.log(USAGE);
  } else if (command === "devnet") {
    await runDevnetCli(rest);
  } else if (PLANNED.includes(command)) {
    console.log(
      `namereg ${command}: not yet available in this build (the server is being built; see README).`,
    );
  } else {
    console.error(`namereg: unknown command ${JSON.stringify(command)}\n${USAGE}`);
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  console.error(`namereg ${command}: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
