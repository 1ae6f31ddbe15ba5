// Builds what the package ships, in dist/ (`npm run build`; `prepare`, so at `npm ci` and `npm pack`):
//   index.js          the entry: the Node version check first, then the client (so an old Node is told in one line)
//   client.js         the client as one ESM module for Node and bundlers; @namereg/protocol, which is not published,
//                     is compiled in; @stellar/stellar-sdk (peer) and openapi-fetch stay imports
//   browser.js        one self-contained ESM file for a page without a bundler (`@namereg/client/browser`)
//   types/*.d.ts      declarations from tsc (tsconfig.build.json)
// each .js with its source map. esbuild bundles (options in build-options.ts) because tsc cannot compile a
// workspace package in.
import { execFileSync } from "node:child_process";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { build } from "esbuild";
import { browserBuild, moduleBuild, PACKAGE_ROOT } from "./build-options.ts";

const root = PACKAGE_ROOT;
const dist = `${root}dist`;

await rm(dist, { recursive: true, force: true });
// TypeScript's own launcher, found the way Node resolves it (the workspace hoists it to the root).
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", `${root}tsconfig.build.json`], { stdio: "inherit" });
await build({ ...moduleBuild, outdir: dist });
await writeFile(
  `${dist}/index.js`,
  '// The version check runs before the client and the SDK load.\nimport "./node-version.js";\nexport * from "./client.js";\n',
);
await build({ ...browserBuild, outdir: dist });

// The declarations must stand alone: a consumer has no @namereg/protocol. tsc keeps the sources' `./x.ts`
// specifiers in declarations (rewriteRelativeImportExtensions covers emitted JavaScript only), which older
// TypeScript versions refuse without allowImportingTsExtensions: `./x.js` resolves to `./x.d.ts` everywhere.
for (const file of await readdir(`${dist}/types`, { recursive: true })) {
  if (!file.endsWith(".d.ts")) continue;
  const path = `${dist}/types/${file}`;
  const text = await readFile(path, "utf8");
  if (text.includes("@namereg/"))
    throw new Error(`dist/types/${file} refers to an unpublished @namereg package`);
  await writeFile(path, text.replace(/(from "|import\(")(\.\.?\/[^"]+)\.ts"/g, '$1$2.js"'));
}
