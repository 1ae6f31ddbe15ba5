import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Two projects: `unit` (no database server, Redis or devnet) and `integration` (`*.integration.test.ts`).
// `npm test` runs both; `npx vitest run --project unit` runs one.
const TESTS = [
  "packages/*/src/**/*.test.ts",
  "packages/*/test/**/*.test.ts",
  // The web app's browser-test fixtures have unit tests of their own (packages/web/e2e/fixtures/*.test.ts).
  "packages/web/e2e/**/*.test.ts",
  "bench/**/*.test.ts",
];
const INTEGRATION = "**/*.integration.test.ts";

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
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Every child process a test starts is killed when the test ends, and a test that left one running fails.
    setupFiles: ["packages/server/test/no-leftover-processes.ts"],
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
          exclude: ["**/node_modules/**"],
          globalSetup: ["packages/server/test/global-setup.ts"],
        },
      },
    ],
  },
});
