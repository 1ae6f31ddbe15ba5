import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { LongestFirst } from "./packages/server/test/longest-first.ts";

// Four projects: `unit` (no database server, Redis or devnet), `integration` (`*.integration.test.ts`), `browser`
// (the web app's Chromium tests in packages/web/e2e) and `own-process` (files that measure their own process). `npm test` runs all; `npx vitest run --project unit` runs one.
const TESTS = [
  "packages/*/src/**/*.test.ts",
  "packages/*/test/**/*.test.ts",
  // The web app's browser-test fixtures have unit tests of their own (packages/web/e2e/fixtures/*.test.ts).
  "packages/web/e2e/**/*.test.ts",
  "bench/**/*.test.ts",
];
const INTEGRATION = "**/*.integration.test.ts";
const BROWSER = "packages/web/e2e/**/*.integration.test.ts";
// Files that measure their own process (its RSS) and so need one of their own.
const OWN_PROCESS = ["packages/server/src/api/routes/stream/slow-readers.integration.test.ts"];

export default defineConfig({
  // Tests run @namereg/client's source, like the type check (tsconfig `paths`); the built package is what
  // packages/client/src/package.integration.test.ts installs and runs outside the workspace.
  resolve: {
    alias: { "@namereg/client": fileURLToPath(new URL("packages/client/src/index.ts", import.meta.url)) },
  },
  test: {
    // Vitest's default is one worker per core less one: a single worker on a two-core machine. Integration files
    // spend most of their time waiting on PostgreSQL, child processes and the devnet, so more overlap well.
    maxWorkers: 4,
    // A worker runs its files one after another in one module registry instead of a fresh one per file: importing
    // the server's modules (the Stellar SDK, Fastify, PGlite…) afresh took 27–46% of every file's time (the unit
    // project: 225 s isolated, 91 s not). Tests therefore keep no state in modules that another file could meet;
    // the setup files reset what is theirs per file.
    isolate: false,
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Every child process a test starts is killed when the test ends, and a test that left one running fails.
    // And every answer a file's apps send must be one docs/openapi.json describes (answers-match-document.ts).
    setupFiles: [
      "packages/server/test/answers-match-document.ts",
      "packages/server/test/no-leftover-processes.ts",
    ],
    reporters: ["default"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: TESTS,
          exclude: [INTEGRATION, "**/node_modules/**"],
          globalSetup: ["packages/server/test/global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: [INTEGRATION],
          exclude: [BROWSER, ...OWN_PROCESS, "**/node_modules/**"],
          globalSetup: ["packages/server/test/global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "own-process",
          include: OWN_PROCESS,
          isolate: true,
          globalSetup: ["packages/server/test/global-setup.ts"],
        },
      },
      {
        // The web app in Chromium: one step of a flow (sign, submit, wait for the indexer, the page to follow)
        // measured up to 36 s at a load average of 11 on two cores, so twice that leaves room on a slower machine.
        extends: true,
        test: {
          name: "browser",
          include: [BROWSER],
          exclude: ["**/node_modules/**"],
          testTimeout: 150_000,
          hookTimeout: 150_000,
          globalSetup: ["packages/server/test/global-setup.ts"],
        },
      },
    ],
  },
});
