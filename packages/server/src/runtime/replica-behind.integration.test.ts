// A read replica (DATABASE_READ_URL) that has not replayed the migrations yet is a normal state, not a fault: the
// name routes answer 503 database_unavailable with Retry-After (never 500), nothing logs an error, and
// `namereg serve` waits for the replica (saying so) before it listens, then serves once the replica has them.
// The "replica" here is a separate, empty database; the writer is a migrated one.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { testConfig } from "../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import { descendantsOf, listeningPorts } from "../../test/fixtures/process-tree.ts";
import { buildApp } from "../api/app.ts";
import { openDatabase } from "../db/database.ts";
import type { Database } from "../db/types.ts";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));
/** Only tells a bounded wait from a hang. */
const HANG_MS = 40_000;

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + HANG_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("a read replica that is behind the schema", () => {
  let primary: TestDatabase | undefined;
  let replica: TestDatabase | undefined;
  let database: Database | undefined;
  let serve: ChildProcess | undefined;
  afterEach(async () => {
    if (serve?.pid !== undefined && serve.exitCode === null && serve.signalCode === null) {
      process.kill(-serve.pid, "SIGKILL");
    }
    await database?.close();
    await replica?.close();
    await primary?.close();
    primary = replica = database = serve = undefined;
  });

  it("answers 503 database_unavailable with Retry-After on the name routes, and logs no error", async () => {
    primary = await createTestDatabase("postgres");
    replica = await createTestDatabase("postgres", { migrate: false });
    database = await openDatabase({ url: primary.url, readUrl: replica.url });
    const lines: { level: number; msg: string }[] = [];
    const { pino } = await import("pino");
    const logger = pino(
      { level: "debug" },
      { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) },
    );
    const app = await buildApp({
      config: testConfig({ DATABASE_URL: primary.url, DATABASE_READ_URL: replica.url }),
      db: database,
      logger,
      redis: null,
    });
    try {
      for (const url of ["/v1/namespaces/acme", "/v1/namespaces", "/v1/directory/namespaces"]) {
        const response = await app.inject({ url });
        expect({ url, status: response.statusCode }).toEqual({ url, status: 503 });
        expect(response.headers["retry-after"]).toBe("5");
        expect(response.json()).toEqual({
          error: "database_unavailable",
          detail: "The database is not answering right now; nothing was changed. Retry shortly.",
        });
      }
      // pino: 50 is error; the expiry clock's start and the requests above must not log one.
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it("`namereg serve` waits for the replica to have the migrations before it listens, then serves", async () => {
    primary = await createTestDatabase("postgres");
    replica = await createTestDatabase("postgres", { migrate: false });
    const child = spawn(process.execPath, [CLI, "serve"], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: primary.url,
        DATABASE_READ_URL: replica.url,
        HOST: "127.0.0.1",
        // The OS picks the port when serve listens: a port picked beforehand could be taken meanwhile by another
        // process of a parallel suite, whose answer would pass for serve's.
        PORT: "0",
        SESSION_SECRET: "x".repeat(40),
        HOME_DOMAIN: "names.example.com",
        LOG_LEVEL: "info",
      },
    });
    serve = child;
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    /** The ports serve (the CLI's process and any process it started) listens on. */
    const listening = () => listeningPorts([child.pid ?? 0, ...descendantsOf(child.pid ?? 0)]);

    await until(() => output.includes("waiting for the read replica to have migration"), "the waiting line");
    expect(output).toMatch(/waiting for the read replica to have migration 0\d{3}_\w+/);
    expect(listening()).toEqual([]);
    expect(output).not.toContain("API listening");

    // The replica catches up (here: the same migrations applied to it).
    const catchingUp = await openDatabase({ url: replica.url });
    await catchingUp.migrate();
    await catchingUp.close();

    await until(() => output.includes("API listening"), "serve to listen");
    const url = /"url":"(http:\/\/127\.0\.0\.1:(\d+))"[^\n]*"API listening"/.exec(output);
    expect(url?.[1]).toBeDefined();
    expect(listening()).toEqual([Number(url?.[2])]);
    expect((await fetch(`${url?.[1]}/health`)).status).toBe(200);
    const response = await fetch(`${url?.[1]}/v1/namespaces/acme`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "namespace_not_found" });
    // pino's error level is 50: nothing in the whole run logged one.
    expect(output).not.toMatch(/"level":(50|60)/);

    process.kill(-(child.pid ?? 0), "SIGTERM");
    expect(await exited).toBe(0);
  });
});
