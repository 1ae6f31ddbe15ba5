// stellar.toml prints the service's own URLs from configuration (PUBLIC_URL, else HOME_DOMAIN), never from the
// request: a spoofed Host or X-Forwarded-Proto, even behind a trusted proxy, changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../../test/fixtures/database.ts";
import { loadConfig } from "../../../config/index.ts";
import { type App, buildApp } from "../../app.ts";

const SPOOFS: readonly Record<string, string>[] = [
  { host: "evil.example" },
  { host: "names.example", "x-forwarded-proto": "javascript" },
  { host: "names.example", "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" },
  { host: "names.example", "x-forwarded-proto": "HTTPS://evil.example" },
];

describe("stellar.toml URLs", () => {
  let database: TestDatabase;
  const apps: App[] = [];
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  }, 60_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.close();
  });

  const urls = async (env: Record<string, string>, headers: Record<string, string>) => {
    const app = await buildApp({
      config: testConfig({ TRUST_PROXY: "1", ...env }),
      db: database,
      redis: null,
    });
    apps.push(app);
    const response = await app.inject({ url: "/.well-known/stellar.toml", headers });
    expect(response.statusCode).toBe(200);
    return response.body
      .split("\n")
      .filter((line) => line.startsWith("FEDERATION_SERVER=") || line.startsWith("WEB_AUTH_ENDPOINT="));
  };

  it("uses PUBLIC_URL whatever Host and X-Forwarded-* say", async () => {
    for (const headers of SPOOFS) {
      expect(await urls({ PUBLIC_URL: "https://names.example/api/" }, headers)).toEqual([
        'FEDERATION_SERVER="https://names.example/api/federation"',
        'WEB_AUTH_ENDPOINT="https://names.example/api/auth"',
      ]);
    }
  });

  it("falls back to https on HOME_DOMAIN", async () => {
    for (const headers of SPOOFS) {
      expect(await urls({ HOME_DOMAIN: "names.example" }, headers)).toEqual([
        'FEDERATION_SERVER="https://names.example/federation"',
        'WEB_AUTH_ENDPOINT="https://names.example/auth"',
      ]);
    }
  });

  it("accepts only http and https for PUBLIC_URL", () => {
    for (const url of ["javascript://evil.example/x", "ftp://names.example", "names.example"]) {
      expect(() => loadConfig({ PUBLIC_URL: url })).toThrow(/PUBLIC_URL/);
    }
    expect(loadConfig({ PUBLIC_URL: "http://localhost:8080" }).publicUrl).toBe("http://localhost:8080");
  });
});
