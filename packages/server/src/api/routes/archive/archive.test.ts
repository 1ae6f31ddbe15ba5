import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../../test/fixtures/database.ts";
import { headAt, NOW, resetIndexer, secondsBefore } from "../../../../test/fixtures/routes.ts";
import { STALE_AFTER_SECONDS } from "../../../db/coverage.ts";
import { events, gaps } from "../../../db/tables.ts";
import type { App } from "../../app.ts";
import { buildApp } from "../../app.ts";
import { LABEL_RULE } from "../path-params.ts";

let database: TestDatabase;
let now = NOW;
let app: App;
beforeAll(async () => {
  database = await createTestDatabase("pglite");
  app = await buildApp({
    config: testConfig(),
    db: database,
    redis: null,
    chain: headAt(1002),
    now: () => now,
  });
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

const OBSERVED = secondsBefore(NOW, 10);
const REGISTRY = "CAAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQC526";
const OTHER = "CABAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAEAQCAIBAFNSZ";

beforeEach(async () => {
  now = NOW;
  await resetIndexer(database, {
    headLedger: 1000,
    headObservedAt: OBSERVED,
    processedLedger: 1000,
    processedAt: OBSERVED,
  });
});

describe("GET /v1/coverage", () => {
  it("reports complete coverage while fresh and without gaps", async () => {
    const response = await app.inject({ url: "/v1/coverage" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.json()).toEqual({
      source: "indexed",
      complete: true,
      processedLedger: 1000,
      headLedger: 1000,
      processedAt: OBSERVED.toISOString(),
      headObservedAt: OBSERVED.toISOString(),
      gaps: [],
    });
  });

  it("lists gaps, which make it incomplete", async () => {
    await database.db.insert(gaps).values([
      { contractId: OTHER, fromLedger: 20, toLedger: 30, reason: "outside the RPC's retention window" },
      { contractId: REGISTRY, fromLedger: 5, toLedger: 9, reason: "outside the RPC's retention window" },
    ]);
    expect((await app.inject({ url: "/v1/coverage" })).json()).toEqual({
      source: "indexed",
      complete: false,
      processedLedger: 1000,
      headLedger: 1000,
      processedAt: OBSERVED.toISOString(),
      headObservedAt: OBSERVED.toISOString(),
      gaps: [
        { contractId: REGISTRY, fromLedger: 5, toLedger: 9, reason: "outside the RPC's retention window" },
        { contractId: OTHER, fromLedger: 20, toLedger: 30, reason: "outside the RPC's retention window" },
      ],
    });
  });

  it("stops claiming completeness once the indexer's report is stale", async () => {
    now = new Date(OBSERVED.getTime() + (STALE_AFTER_SECONDS + 1) * 1000);
    expect((await app.inject({ url: "/v1/coverage" })).json()).toMatchObject({ complete: false });
  });

  it("reports nothing covered before the indexer ran", async () => {
    await resetIndexer(database);
    expect((await app.inject({ url: "/v1/coverage" })).json()).toEqual({
      source: "indexed",
      complete: false,
      processedLedger: null,
      headLedger: null,
      processedAt: null,
      headObservedAt: null,
      gaps: [],
    });
  });
});

describe("GET /v1/events", () => {
  const ingestedAt = new Date("2026-01-01T00:00:40.000Z");
  const row = (id: string, ledger: number, at: Date | null) => ({
    id,
    contractId: REGISTRY,
    ledger,
    at,
    txHash: "ab".repeat(32),
    transactionIndex: 1,
    operationIndex: 0,
    inSuccessfulContractCall: true,
    topics: ["AAAADwAAAAVuc192MQAAAA==", "AAAADQAAACA="],
    value: "AAAAAQ==",
    type: "ns_v1",
    subject: null,
    namespace: null,
    ingestedAt,
  });

  it("answers each stored field, keeping an unknown chain time null rather than the ingestion time", async () => {
    await database.db
      .insert(events)
      .values([
        row("0000004294971392-0000000002", 1, null),
        row("0000004294971392-0000000001", 1, new Date("2026-01-01T00:00:05.000Z")),
      ]);
    const response = await app.inject({ url: "/v1/events" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const event = (id: string, at: string | null) => ({
      id,
      contractId: REGISTRY,
      txHash: "ab".repeat(32),
      ledger: 1,
      at,
      ingestedAt: ingestedAt.toISOString(),
      type: "ns_v1",
      topics: ["AAAADwAAAAVuc192MQAAAA==", "AAAADQAAACA="],
      data: "AAAAAQ==",
      inSuccessfulContractCall: true,
      transactionIndex: 1,
      operationIndex: 0,
    });
    expect(response.json()).toEqual({
      events: [
        event("0000004294971392-0000000001", "2026-01-01T00:00:05.000Z"),
        event("0000004294971392-0000000002", null),
      ],
      nextCursor: null,
      hasMore: false,
      truncated: false,
      coverage: {
        source: "indexed",
        complete: true,
        processedLedger: 1000,
        headLedger: 1000,
        processedAt: OBSERVED.toISOString(),
        headObservedAt: OBSERVED.toISOString(),
        gaps: [],
      },
    });
  });

  const invalid = (detail: string) => ({ statusCode: 400, body: { error: "invalid_request", detail } });
  const inject = async (url: string) => {
    const response = await app.inject({ url });
    return { statusCode: response.statusCode, body: response.json() };
  };

  it("rejects filter values of the wrong form, naming the parameter", async () => {
    expect(
      await inject("/v1/events?contractId=GABQGAYDAMBQGAYDAMBQGAYDAMBQGAYDAMBQGAYDAMBQGAYDAMBQHGPC"),
    ).toEqual(invalid("contractId: must be a contract ID (C…)"));
    expect(await inject("/v1/events?namespace=-acme")).toEqual(invalid(`namespace: ${LABEL_RULE}`));
    expect(await inject("/v1/events?subject=alice..acme")).toEqual(
      invalid(
        "subject: must be a 64-hex node, a name (namespace, label.namespace or child.label.namespace; A-Z is lower-cased), " +
          "a G… or C… address, or a claim id",
      ),
    );
  });

  it("lower-cases an upper-case namespace filter, as every name segment", async () => {
    const lower = await inject("/v1/events?namespace=acme");
    expect(lower.statusCode).toBe(200);
    expect(await inject("/v1/events?namespace=ACME")).toEqual(lower);
  });

  it("lower-cases a name given as subject: subject=Alice.acme answers as subject=alice.acme", async () => {
    const lower = await inject("/v1/events?subject=alice.acme");
    expect(lower.statusCode).toBe(200);
    expect(await inject("/v1/events?subject=Alice.acme")).toEqual(lower);
    expect(await inject("/v1/events?subject=ALICE.ACME")).toEqual(lower);
  });

  it("rejects repeated and unknown parameters rather than guessing", async () => {
    expect(await inject("/v1/events?limit=1&limit=2")).toEqual(invalid("limit: must be given once"));
    expect(await inject("/v1/events?contract=CAAQ")).toEqual(
      invalid('querystring: Unrecognized key: "contract"'),
    );
    expect(await inject("/v1/events?limit=1.5")).toEqual(invalid("limit: must be an integer from 1 to 1000"));
  });
});
