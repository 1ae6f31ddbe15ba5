import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../../test/fixtures/database.ts";
import {
  failingChain,
  headAt,
  NOW,
  resetIndexer,
  secondsBefore,
  unreachableDatabase,
} from "../../../../test/fixtures/routes.ts";
import type { Database } from "../../../db/types.ts";
import { buildApp } from "../../app.ts";
import type { ChainHeadSource } from "../../chain-head.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("pglite");
});
afterAll(async () => {
  await database?.close();
});

const OBSERVED = secondsBefore(NOW, 30);

async function get(
  url: string,
  opts: { chain?: ChainHeadSource | undefined; db?: Database } = {},
): Promise<{ statusCode: number; body: unknown; cacheControl: unknown }> {
  const app = await buildApp({
    config: testConfig(),
    db: opts.db ?? database,
    redis: null,
    chain: "chain" in opts ? opts.chain : headAt(1002),
    now: () => NOW,
  });
  try {
    const response = await app.inject({ url });
    return {
      statusCode: response.statusCode,
      body: response.json(),
      cacheControl: response.headers["cache-control"],
    };
  } finally {
    await app.close();
  }
}

beforeEach(async () => {
  await resetIndexer(database, {
    headLedger: 1000,
    headObservedAt: OBSERVED,
    processedLedger: 999,
    processedAt: OBSERVED,
  });
});

describe("GET /v1/ledger/head", () => {
  it("answers the head observed live from the RPC", async () => {
    expect(await get("/v1/ledger/head")).toEqual({
      statusCode: 200,
      cacheControl: "no-store",
      body: {
        ledger: 1002,
        closedAt: "2026-01-01T00:00:55.000Z",
        observedAt: NOW.toISOString(),
        source: "rpc",
      },
    });
  });

  it("reads an RFC 3339 close time as well, and leaves an unreadable one null", async () => {
    const rfc = await get("/v1/ledger/head", { chain: headAt(1007, "2026-01-01T00:00:50+00:00") });
    expect(rfc.body).toMatchObject({ ledger: 1007, closedAt: "2026-01-01T00:00:50.000Z", source: "rpc" });
    const garbled = await get("/v1/ledger/head", { chain: headAt(1007, "soon") });
    expect(garbled.body).toMatchObject({ ledger: 1007, closedAt: null, source: "rpc" });
  });

  it("falls back to the indexer's last observation when the RPC fails", async () => {
    expect(await get("/v1/ledger/head", { chain: failingChain })).toEqual({
      statusCode: 200,
      cacheControl: "no-store",
      body: { ledger: 1000, closedAt: null, observedAt: OBSERVED.toISOString(), source: "indexer" },
    });
  });

  it("answers 503 chain_unavailable when neither the RPC nor the indexer knows a head", async () => {
    await resetIndexer(database);
    const expected = {
      statusCode: 503,
      cacheControl: "no-store",
      body: {
        error: "chain_unavailable",
        detail:
          "The chain head could not be observed: the RPC did not answer and no indexer observation is available.",
      },
    };
    expect(await get("/v1/ledger/head", { chain: failingChain })).toEqual(expected);
    expect(await get("/v1/ledger/head", { chain: undefined })).toEqual(expected);
    await resetIndexer(database, { headLedger: 1000, headObservedAt: OBSERVED });
    expect(await get("/v1/ledger/head", { chain: failingChain, db: unreachableDatabase(database) })).toEqual(
      expected,
    );
  });
});

describe("GET /v1/stats", () => {
  it("counts an empty mirror and reports the live head", async () => {
    expect(await get("/v1/stats")).toEqual({
      statusCode: 200,
      cacheControl: "no-store",
      body: { namespaces: 0, names: 0, subnames: 0, ledger: 1002 },
    });
  });

  it("falls back to the indexer's head, then to null", async () => {
    expect((await get("/v1/stats", { chain: failingChain })).body).toEqual({
      namespaces: 0,
      names: 0,
      subnames: 0,
      ledger: 1000,
    });
    await resetIndexer(database);
    expect((await get("/v1/stats", { chain: failingChain })).body).toEqual({
      namespaces: 0,
      names: 0,
      subnames: 0,
      ledger: null,
    });
  });

  it("answers 500 internal_error when the counts cannot be read", async () => {
    expect(await get("/v1/stats", { db: unreachableDatabase(database) })).toMatchObject({
      statusCode: 500,
      body: { error: "internal_error", detail: "An internal error occurred." },
    });
  });
});

describe("the observed head on /v1/status, /v1/allocations, /v1/stats and /v1/ledger/head", () => {
  const ledgers = async (chain: ChainHeadSource) => {
    const of = async (url: string) => {
      const answer = await get(url, { chain });
      expect(answer.statusCode).toBe(200);
      return (answer.body as { ledger: number | null }).ledger;
    };
    return {
      status: await of("/v1/status"),
      allocations: await of("/v1/allocations"),
      stats: await of("/v1/stats"),
      head: await of("/v1/ledger/head"),
    };
  };

  it("is the live head when the indexer lags behind it, not the processed ledger", async () => {
    // The indexer has processed 999 and last saw 1000; the RPC reports 1002.
    expect(await ledgers(headAt(1002))).toEqual({ status: 1002, allocations: 1002, stats: 1002, head: 1002 });
  });

  it("is what the indexer saw when the RPC answers from a replica behind it", async () => {
    expect(await ledgers(headAt(990))).toEqual({ status: 1000, allocations: 1000, stats: 1000, head: 1000 });
    expect((await get("/v1/ledger/head", { chain: headAt(990) })).body).toEqual({
      ledger: 1000,
      closedAt: null,
      observedAt: OBSERVED.toISOString(),
      source: "indexer",
    });
  });
});
