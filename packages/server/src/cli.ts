#!/usr/bin/env node
// The `namereg` command. Subcommands arrive with the server (issue: server core); until then they say so.
const [command = "help"] = process.argv.slice(2);

const PLANNED = ["dev", "start", "serve", "index", "migrate", "devnet"];

if (command === "help" || command === "--help") {
  console.log(`usage: namereg <${PLANNED.join("|")}>`);
} else if (PLANNED.includes(command)) {
  console.log(`namereg ${command}: not yet available in this build (the server is being built; see README).`);
} else {
  console.error(`namereg: unknown command ${JSON.stringify(command)}`);
  process.exitCode = 1;
}
