// stellar.toml behind a trusted proxy: the scheme of the published URLs is http or https, whatever
// X-Forwarded-Proto claims.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../../test/fixtures/database.ts";
import { type App, buildApp } from "../../app.ts";

describe("stellar.toml behind a trusted proxy", () => {
  let database: TestDatabase;
  let app: App;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    app = await buildApp({ config: testConfig({ TRUST_PROXY: "true" }), db: database, redis: null });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const toml = async (proto: string) =>
    (
      await app.inject({
        url: "/.well-known/stellar.toml",
        headers: { host: "names.example", "x-forwarded-proto": proto },
      })
    ).body
      .split("\n")
      .filter((line) => line.startsWith("FEDERATION_SERVER=") || line.startsWith("WEB_AUTH_ENDPOINT="));

  it("keeps https from the proxy", async () => {
    expect(await toml("https")).toEqual([
      'FEDERATION_SERVER="https://names.example/federation"',
      'WEB_AUTH_ENDPOINT="https://names.example/auth"',
    ]);
  });

  it("never publishes another scheme", async () => {
    for (const proto of ["javascript", "data", "ftp", "HTTPS://evil.example"]) {
      expect(await toml(proto)).toEqual([
        'FEDERATION_SERVER="http://names.example/federation"',
        'WEB_AUTH_ENDPOINT="http://names.example/auth"',
      ]);
    }
  });
});
