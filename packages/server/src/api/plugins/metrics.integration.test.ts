// GET /metrics over the indexed demo: Prometheus text that a Prometheus parser reads, and figures that move with
// traffic (request durations, resolve cache hits and misses) and with indexing (the indexer's ledger).
import { demoKeypair, settlingWallet } from "@namereg/devnet";
import { RegistrarFns } from "@namereg/protocol";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../test/fixtures/config.ts";
import { type IndexedDemoChain, indexDemo, runUntilIdle } from "../../../test/fixtures/demo.ts";
import { readIndexerSnapshot } from "../../db/coverage.ts";
import { ServiceMetrics } from "../../metrics/service-metrics.ts";
import { type App, buildApp } from "../app.ts";

interface Family {
  name: string;
  type: string;
  metrics: {
    value?: string;
    labels?: Record<string, string>;
    count?: string;
    buckets?: Record<string, string>;
  }[];
}

describe("GET /metrics", () => {
  let demo: IndexedDemoChain;
  let app: App;
  beforeAll(async () => {
    demo = await indexDemo("pglite");
    app = await buildApp({
      config: testConfig(),
      db: demo.database,
      redis: null,
      metrics: new ServiceMetrics(),
    });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await demo?.devnet.stop();
    await demo?.database.close();
  });

  const scrape = async () => {
    const response = await app.inject({ url: "/metrics" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers["ratelimit-limit"]).toBeUndefined();
    const families = parsePrometheusTextFormat(response.body) as Family[];
    return new Map(families.map((f) => [f.name, f]));
  };
  const value = (families: Map<string, Family>, name: string, labels: Record<string, string> = {}) =>
    Number(
      families.get(name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
        ?.value ?? Number.NaN,
    );

  it("parses as Prometheus text, with process metrics", async () => {
    const families = await scrape();
    expect(families.get("namereg_process_cpu_user_seconds_total")?.type).toBe("COUNTER");
    expect(families.get("namereg_http_request_duration_seconds")?.type).toBe("HISTOGRAM");
    expect(value(families, "namereg_indexer_ledger")).toBe(
      (await readIndexerSnapshot(demo.database.db)).processedLedger,
    );
    expect(value(families, "namereg_indexer_dead_letters")).toBe(0);
  });

  it("moves with traffic: request durations and resolve cache hits and misses", async () => {
    const before = await scrape();
    const hits = value(before, "namereg_resolve_cache_lookups_total", { result: "hit" }) || 0;
    const misses = value(before, "namereg_resolve_cache_lookups_total", { result: "miss" }) || 0;
    for (let i = 0; i < 3; i++)
      expect((await app.inject({ url: "/v1/resolve/acme/alice" })).statusCode).toBe(200);
    const after = await scrape();
    expect(value(after, "namereg_resolve_cache_lookups_total", { result: "miss" })).toBe(misses + 1);
    expect(value(after, "namereg_resolve_cache_lookups_total", { result: "hit" })).toBe(hits + 2);
    // The parser keeps histogram buckets but not their labels; the count series says it plainly.
    const text = (await app.inject({ url: "/metrics" })).body;
    const count =
      /namereg_http_request_duration_seconds_count\{[^}]*route="\/v1\/resolve\/:namespace\/:label"[^}]*status="200"[^}]*\} (\d+)/.exec(
        text,
      );
    expect(Number(count?.[1])).toBeGreaterThanOrEqual(3);
  });

  it("moves with indexing: the indexer's ledger follows the chain", async () => {
    const before = value(await scrape(), "namereg_indexer_ledger");
    const acme = demo.devnet.demo?.namespaces.acme.registrar ?? "";
    const wallet = settlingWallet(demo.devnet);
    await wallet.invoke(demoKeypair("acme"), acme, RegistrarFns.issue, {
      label: "metric",
      holder: demoKeypair("carol").publicKey(),
      address: demoKeypair("carol").publicKey(),
      expiresAt: 0n,
    });
    demo.devnet.closeLedger();
    await runUntilIdle(demo.indexer);
    // The scrape reads the database at most once a second.
    await new Promise((r) => setTimeout(r, 1100));
    expect(value(await scrape(), "namereg_indexer_ledger")).toBeGreaterThan(before);
  });
});
