// Builds what the package ships, in dist/ (run by `npm run build`, `prepare` at `npm ci`, and `prepack`):
//   index.js          the entry: the Node version check first, then the client (so an old Node is told in one line)
//   client.js         the client as one ESM module for Node and bundlers; @namereg/protocol, which is not published,
//                     is compiled in; @stellar/stellar-sdk (peer) and openapi-fetch stay imports
//   browser.js        one self-contained ESM file for a page without a bundler (`@namereg/client/browser`)
//   types/*.d.ts      declarations from tsc (tsconfig.build.json)
// each .js with its source map. esbuild does the bundling because tsc cannot compile a workspace package in.
import { execFileSync } from "node:child_process";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = `${root}dist`;
const pkg = JSON.parse(await readFile(`${root}package.json`, "utf8")) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
// What a consumer installs stays an import (with its subpaths); everything else is compiled in.
const external = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})].flatMap(
  (name) => [name, `${name}/*`],
);

const common = {
  bundle: true,
  format: "esm",
  target: "es2022",
  sourcemap: true,
  logLevel: "warning",
  legalComments: "none",
} as const;

await rm(dist, { recursive: true, force: true });
// TypeScript's own launcher, found the way Node resolves it (the workspace hoists it to the root).
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", `${root}tsconfig.build.json`], { stdio: "inherit" });
await build({
  ...common,
  entryPoints: { client: `${root}src/index.ts`, "node-version": `${root}src/node-version.ts` },
  outdir: dist,
  platform: "neutral",
  mainFields: ["module", "main"],
  external,
});
await writeFile(
  `${dist}/index.js`,
  '// The version check runs before the client and the SDK load.\nimport "./node-version.js";\nexport * from "./client.js";\n',
);
await build({
  ...common,
  entryPoints: { browser: `${root}src/index.ts` },
  outdir: dist,
  platform: "browser",
  minify: true,
});

// The declarations must stand alone: a consumer has no @namereg/protocol.
for (const file of await readdir(`${dist}/types`, { recursive: true })) {
  if (!file.endsWith(".d.ts")) continue;
  const text = await readFile(`${dist}/types/${file}`, "utf8");
  if (text.includes("@namereg/"))
    throw new Error(`dist/types/${file} refers to an unpublished @namereg package`);
}
