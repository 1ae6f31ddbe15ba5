#!/usr/bin/env node
// Entry point of the `namereg` command. It is plain JavaScript on purpose: the CLI itself is TypeScript run by
// Node's type stripping (Node 24), and this file must parse on whatever `node` the shebang finds first on PATH —
// often the machine's own, older one (a supervisor's PATH, `node_modules/.bin/namereg` run directly).
// `npm ci` installs Node 24 into the workspace (the `node` dev dependency, node_modules/node/bin/node). On an
// older Node this file finds that one, walking up from its own (real) location, and runs the CLI on it, passing
// SIGINT/SIGTERM/SIGHUP on and exiting as it exits, so a supervisor can start `node_modules/.bin/namereg` with any
// node first on PATH. Without a workspace Node it says what is needed in one line, not a stack trace.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const [major] = process.versions.node.split(".").map(Number);
if (major >= 24) {
  await import("../src/cli.ts");
} else {
  const here = fileURLToPath(import.meta.url);
  const workspaceNode = findUp(dirname(here), join("node_modules", "node", "bin", "node"));
  if (workspaceNode === null) {
    console.error(
      `namereg needs Node.js 24 or newer, not ${process.version} (${process.execPath}), and found no workspace ` +
        "Node 24 (node_modules/node/bin/node, installed by npm ci) above it: run npm ci, or start it with Node 24",
    );
    process.exit(1);
  }
  const child = spawn(workspaceNode, [here, ...process.argv.slice(2)], { stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("error", (err) => {
    console.error(`namereg: could not start ${workspaceNode}: ${err.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) =>
    process.exit(code ?? (signal === null ? 1 : 128 + signalNumber(signal))),
  );
}

/** The first `relative` path that exists in `dir` or one of its parents; null when none does. */
function findUp(dir, relative) {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, relative);
    if (existsSync(candidate)) return candidate;
    if (dirname(at) === at) return null;
  }
}

function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal] ?? 1;
}
