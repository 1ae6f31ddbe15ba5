// The short, seeded variant of the fuzz suite (bench/fuzz/run.ts runs 10,000): requests generated from the OpenAPI
// document against the app over the indexed demo. Speed is the benchmark's business; this checks every answer's
// shape: no 5xx but an honest 503, a known error code on every 4xx, nothing internal in any body — and, with every
// other suite's, that the OpenAPI document describes each answer (status, error code, body).
import { buildApp, ChainClient, contractEnv } from "@namereg/server";
import { type IndexedDemoChain, indexDemo, recordedAnswers, testConfig } from "@namereg/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fuzzRequests, injectTarget, runFuzz } from "./fuzz.ts";

describe("fuzzing the API from its OpenAPI document", () => {
  let demo: IndexedDemoChain;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    demo = await indexDemo("pglite");
    app = await buildApp({
      config: testConfig({
        RATE_LIMIT_PER_MINUTE: "1000000",
        RPC_URL: demo.devnet.rpcUrl,
        NETWORK_PASSPHRASE: demo.devnet.networkPassphrase,
        ...contractEnv(demo.devnet),
      }),
      db: demo.database,
      redis: null,
      chainClient: new ChainClient(demo.devnet.rpcUrl, demo.devnet.networkPassphrase),
    });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await demo?.devnet.stop();
    await demo?.database.close();
  });

  it("generates the same requests for the same seed, touching every operation", async () => {
    const document = (await app.inject({ url: "/openapi.json" })).json();
    const a = fuzzRequests(document, 400, 7);
    expect(fuzzRequests(document, 400, 7)).toEqual(a);
    expect(fuzzRequests(document, 400, 8)).not.toEqual(a);
    const operations = Object.values(document.paths as Record<string, object>).reduce(
      (n: number, methods) => n + Object.keys(methods).length,
      0,
    );
    const paths = new Set(fuzzRequests(document, 3000, 7).map((r) => `${r.method} ${r.url.split("?")[0]}`));
    expect(paths.size).toBeGreaterThan(operations);
  });

  it("answers 1,500 hostile requests in the house format, leaking nothing", async () => {
    const document = (await app.inject({ url: "/openapi.json" })).json();
    // The web app's page (a path such as /v1/subnames/../.. is /) is not an API answer the document describes.
    const inject = injectTarget(app);
    let pages = 0;
    const target: typeof inject = {
      async send(request) {
        const answer = await inject.send(request);
        if (answer.contentType.startsWith("text/html")) pages++;
        return answer;
      },
    };
    const report = await runFuzz(target, document, {
      count: 1500,
      seed: 11,
      slowMs: Number.POSITIVE_INFINITY,
      concurrency: 2,
    });
    expect(report.failures.map((f) => `${f.status} ${f.request.method} ${f.request.url}: ${f.why}`)).toEqual(
      [],
    );
    expect(report.requests).toBe(1500);
    // Each answer is also checked against the document when the file ends (answers-match-document.ts): all of them.
    expect(pages).toBeLessThan(15);
    expect(recordedAnswers().length).toBeGreaterThanOrEqual(1500 - pages);
    expect(Object.keys(report.byStatus)).toEqual(expect.arrayContaining(["200", "400", "401", "404"]));
  });
});
