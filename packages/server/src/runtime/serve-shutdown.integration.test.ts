// `namereg serve` with REDIS_URL exits 0 on SIGTERM whatever its Redis does (docs/operations.md): gone (its
// port closed: QUIT refused at once, no offline queue) or frozen (SIGSTOP: QUIT never answered). A Redis of the
// test's own, never the shared one.

import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import { spawnInGroup } from "../../test/fixtures/child-processes.ts";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import { freePort } from "../../test/fixtures/free-port.ts";
import { type PrivateRedis, startPrivateRedis } from "../../test/fixtures/private-redis.ts";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));

let database: TestDatabase | undefined;
let redis: PrivateRedis | undefined;
afterEach(async () => {
  redis?.thaw();
  await redis?.stop();
  await database?.close();
});

async function serveThenTerm(breakRedis: (redis: PrivateRedis) => Promise<void>) {
  database = await createTestDatabase("postgres");
  redis = await startPrivateRedis();
  const port = await freePort();
  const child = spawnInGroup(process.execPath, [CLI, "serve"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      HOST: "127.0.0.1",
      PORT: String(port),
      SESSION_SECRET: "x".repeat(40),
      HOME_DOMAIN: "names.example.com",
      LOG_LEVEL: "info",
    },
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  while (!output.includes("API listening")) {
    if (child.exitCode !== null) throw new Error(`serve exited early: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  await breakRedis(redis);
  // A request meets the broken Redis before the signal, as a serving process's would.
  expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  child.kill("SIGTERM");
  const code = await exited;
  expect({ code, output: code === 0 ? "" : output }).toEqual({ code: 0, output: "" });
}

it("exits 0 on SIGTERM while Redis is gone", async () => {
  await serveThenTerm((r) => r.stop());
}, 180_000);

it("exits 0 on SIGTERM while Redis is frozen", async () => {
  await serveThenTerm(async (r) => r.freeze());
}, 180_000);
