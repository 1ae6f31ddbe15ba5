// For tests: a configuration that logs nothing, keeps data in memory and needs no other variables.
import type { Config } from "./config.ts";
import { type Env, type LoadOptions, loadConfig } from "./load.ts";

export const TEST_ENV: Env = Object.freeze({
  LOG_LEVEL: "silent",
  DATABASE_URL: "memory://",
  SESSION_SECRET: "test-session-secret-test-session-secret",
});

export function testConfig(overrides: Env = {}, options: LoadOptions = {}): Config {
  return loadConfig({ ...TEST_ENV, ...overrides }, options);
}
