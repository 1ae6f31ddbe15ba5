// Fuzz suite (issue 17): N requests generated from the OpenAPI document against the app over the indexed demo
// (PGlite, devnet in process), seeded. Prints the figures; exits 1 on any failure.
//   npx node bench/fuzz/run.ts [--count=10000] [--seed=1]
import { parseArgs } from "node:util";
import { buildApp, ChainClient, contractEnv } from "@namereg/server";
import { indexDemo, testConfig } from "@namereg/server/testing";
import { injectTarget, runFuzz } from "./fuzz.ts";

const { values } = parseArgs({
  options: { count: { type: "string", default: "10000" }, seed: { type: "string", default: "1" } },
});
const demo = await indexDemo("pglite");
const app = await buildApp({
  // The demo's contracts and RPC, so requests reach live reads, prepares and the console's owner checks.
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
try {
  const document = (await app.inject({ url: "/openapi.json" })).json();
  const started = performance.now();
  const report = await runFuzz(injectTarget(app), document, {
    count: Number(values.count),
    seed: Number(values.seed),
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(`requests      ${report.requests} in ${seconds.toFixed(1)} s (seed ${values.seed})`);
  console.log(`by status     ${JSON.stringify(report.byStatus)}`);
  console.log(`slowest       ${Math.round(report.slowestMs)} ms`);
  console.log(`failures      ${report.failures.length}`);
  for (const f of report.failures.slice(0, 20)) {
    console.log(
      `  ${f.status} ${f.request.method} ${f.request.url.slice(0, 120)}: ${f.why}\n    ${f.body.slice(0, 200)}`,
    );
  }
  process.exitCode = report.failures.length === 0 ? 0 : 1;
} finally {
  await app.close();
  await demo.devnet.stop();
  await demo.database.close();
}
