import { defineConfig } from "vitest/config";

// Two projects: `unit` (no database server, Redis or devnet) and `integration` (`*.integration.test.ts`).
// `npm test` runs both; `npx vitest run --project unit` runs one.
const TESTS = ["packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts", "bench/**/*.test.ts"];
const INTEGRATION = "**/*.integration.test.ts";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
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
