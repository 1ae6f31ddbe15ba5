import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../../test/fixtures/database.ts";
import { buildApp } from "../../app.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("pglite");
});
afterAll(async () => {
  await database?.close();
});

async function network(env: Record<string, string>) {
  const app = await buildApp({ config: testConfig(env), db: database, redis: null });
  try {
    return await app.inject({ url: "/v1/network" });
  } finally {
    await app.close();
  }
}

describe("GET /v1/network", () => {
  it("names the configured network and public RPC, uncached", async () => {
    const answer = await network({
      NETWORK_PASSPHRASE: "Test SDF Network ; September 2015",
      PUBLIC_RPC_URL: "https://soroban-testnet.stellar.org",
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.json()).toEqual({
      network: "Test SDF Network ; September 2015",
      publicRpcUrl: "https://soroban-testnet.stellar.org",
    });
  });

  it("answers null for what is not configured: the page then refuses to announce", async () => {
    const answer = await network({});
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ network: null, publicRpcUrl: null });
  });
});
