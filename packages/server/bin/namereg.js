#!/usr/bin/env node
// Entry point of the `namereg` command. It is plain JavaScript on purpose: the CLI itself is TypeScript run by
// Node's type stripping, and a Node without it (the machine's Node 20, say) would die on `cli.ts` with
// ERR_UNKNOWN_FILE_EXTENSION and a stack trace. This file parses on any Node and says what is needed instead.
// `npm ci` installs Node 24 into node_modules/.bin (the `node` dev dependency), which every npm script and
// `npx namereg …` put first on PATH.
const [major] = process.versions.node.split(".").map(Number);
if (major < 24) {
  console.error(
    `namereg needs Node.js 24 or newer, not ${process.version} (${process.execPath}): run it through npm ` +
      "(npm start, npx namereg …), which uses the Node 24 that npm ci installed into node_modules/.bin",
  );
  process.exit(1);
}
await import("../src/cli.ts");
