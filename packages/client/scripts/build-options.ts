// The esbuild options of what dist/ ships, shared by scripts/build.ts and the tests that check the bundles
// (src/browser-bundle.test.ts), so a test exercises the very bundle the package publishes.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BuildOptions } from "esbuild";

export const PACKAGE_ROOT = fileURLToPath(new URL("..", import.meta.url));
const ENTRY = `${PACKAGE_ROOT}src/index.ts`;
const pkg = JSON.parse(readFileSync(`${PACKAGE_ROOT}package.json`, "utf8")) as {
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
} as const satisfies BuildOptions;

/** client.js (Node and bundlers) and node-version.js: @namereg/protocol compiled in, dependencies imported. */
export const moduleBuild: BuildOptions = {
  ...common,
  entryPoints: { client: ENTRY, "node-version": `${PACKAGE_ROOT}src/node-version.ts` },
  platform: "neutral",
  mainFields: ["module", "main"],
  external,
};

/** browser.js: one self-contained ES module, the SDK and everything else inside, for a page with no bundler. */
export const browserBuild: BuildOptions = {
  ...common,
  entryPoints: { browser: ENTRY },
  platform: "browser",
  minify: true,
};
