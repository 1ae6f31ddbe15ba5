// Records the public API's answers on the demo chain, so a refactoring can be checked to change none of them:
//
//   npx node packages/server/scripts/record-public-answers.ts before.json   # on the old commit
//   npx node packages/server/scripts/record-public-answers.ts after.json    # on the new one
//   diff before.json after.json                                              # nothing: byte-identical
//
// The whole process runs on a frozen clock (FROZEN_AT), so the demo's ledger close times, expiries, transaction
// hashes and every freshness judgement are the same on every run. Normalised is only what the process's clock
// cannot fix: the RPC's port (random per run) becomes `RPC_PORT`, and `ingestedAt` (on PostgreSQL the database
// server's own clock stamps it) becomes `INGESTED_AT`; the `date` header is left out. DATABASE_URL (default `memory://`, a PGlite) may name an empty
// PostgreSQL database instead.
import { writeFileSync } from "node:fs";

const FROZEN_AT = Date.parse("2026-03-01T12:00:00.000Z");
const RealDate = Date;
// A Date whose "now" stands still: `Date.now()` and `new Date()` both answer FROZEN_AT.
class FrozenDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(FROZEN_AT);
    else super(...(args as [string | number]));
  }
  static override now(): number {
    return FROZEN_AT;
  }
}
globalThis.Date = FrozenDate as DateConstructor;

const { DEMO_ETHEREUM, demoKeypair, startNamingDevnet } = await import("@namereg/devnet");
const server = await import("../src/index.ts");

const output = process.argv[2];
if (output === undefined) {
  console.error("usage: record-public-answers.ts <output.json>");
  process.exit(2);
}
const databaseUrl = process.env.DATABASE_URL ?? "memory://";

const devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 0 });
const database = await server.openDatabase({ url: databaseUrl });
const pk = (role: Parameters<typeof demoKeypair>[0]) => demoKeypair(role).publicKey();
try {
  await database.migrate();
  const { registry, allocator, lookup, primary } = devnet.contracts;
  const startLedger = devnet.deploymentLedger;
  const indexer = new server.Indexer({
    db: database.db,
    rpc: new server.RpcClient(devnet.rpcUrl, { retries: 2, backoffMs: 10 }),
    reader: new server.ContractReader(devnet.rpcUrl, devnet.networkPassphrase),
    core: [
      { role: "registry", contractId: registry, startLedger },
      { role: "allocator", contractId: allocator, startLedger },
      { role: "lookup", contractId: lookup, startLedger },
      { role: "primary", contractId: primary, startLedger },
    ],
    registryId: registry,
    pollMs: 10,
  });
  await indexer.init();
  // Passes until one makes no progress.
  while (await indexer.runOnce()) {}
  await database.db
    .insert(server.tables.namespaceProfiles)
    .values({ label: "acme", displayName: "Acme", logo: "data:image/png;base64,iVBORw0KGgo=" });
  const rpc = new server.RpcClient(devnet.rpcUrl, { retries: 0 });
  const app = await server.buildApp({
    config: server.loadConfig({
      LOG_LEVEL: "silent",
      DATABASE_URL: "memory://",
      SESSION_SECRET: "record-public-answers-secret-0123456789",
      RPC_URL: devnet.rpcUrl,
      NETWORK_PASSPHRASE: devnet.networkPassphrase,
      REGISTRY_ID: devnet.contracts.registry,
      ALLOCATOR_ID: devnet.contracts.allocator,
      LOOKUP_ID: devnet.contracts.lookup,
      PRIMARY_ID: devnet.contracts.primary,
    }),
    db: database,
    redis: null,
    chain: { head: () => rpc.getLatestLedger() },
    chainClient: new server.ChainClient(devnet.rpcUrl, devnet.networkPassphrase),
  });
  const gets = [
    "/health",
    "/v1/status",
    "/v1/ledger/head",
    "/v1/stats",
    "/v1/coverage",
    "/v1/events",
    "/v1/events?limit=5",
    "/v1/events?subject=alice.acme",
    "/v1/events?subject=acme",
    "/v1/resolve/acme/alice",
    "/v1/resolve/acme/bob",
    "/v1/resolve/acme/old",
    "/v1/resolve/acme/gone",
    "/v1/resolve/acme/nobody",
    "/v1/resolve/plain/carol",
    "/v1/resolve/ACME/alice",
    "/v1/resolve/acme/-bad",
    "/v1/names/acme/alice",
    "/v1/names/acme/old",
    "/v1/names/acme/nobody",
    "/v1/names/acme/alice/history",
    "/v1/names/acme/alice/history?limit=1",
    `/v1/names/by-holder/${pk("alice")}`,
    `/v1/names/by-holder/${pk("bob")}`,
    "/v1/names/by-holder/nonsense",
    "/v1/records/acme/alice",
    "/v1/records/acme/bob",
    "/v1/records/plain/carol",
    `/v1/reverse/${pk("alice")}`,
    `/v1/reverse/${pk("carol")}`,
    `/v1/reverse/${DEMO_ETHEREUM}`,
    "/v1/namespaces",
    "/v1/namespaces/acme",
    "/v1/namespaces/plain",
    "/v1/namespaces/forsale",
    "/v1/namespaces/winner",
    "/v1/namespaces/nothing",
    "/v1/lookup?q=ali",
    "/v1/lookup?q=acme",
    "/v1/lookup?q=",
    "/v1/showcase",
    "/v1/directory/namespaces",
    `/v1/directory/reverse/${pk("alice")}`,
    "/v1/subnames/acme/alice",
    "/v1/subnames/acme/alice/pay",
    "/v1/subnames/acme/alice/old",
    "/v1/subnames/plain/carol",
    "/v1/subname-policy/acme",
    "/v1/subname-policy/plain",
    "/v1/chain-policy/acme",
    "/v1/chain-address/acme/alice/ethereum",
    "/v1/chain-address/acme/alice/bitcoin",
    "/v1/chain-address/acme/alice/nonet",
    "/federation?q=alice*acme&type=name",
    "/federation?q=bob*acme&type=name",
    "/federation?q=nobody*acme&type=name",
    `/federation?q=${pk("alice")}&type=id`,
    "/federation?q=x&type=txid",
    "/.well-known/stellar.toml",
    "/v1/nothing-here",
    `/auth?account=nonsense`,
  ];
  const posts: [string, object][] = [
    [
      "/subnames/prepare",
      {
        name: "shop.alice.acme",
        action: "create",
        parentGeneration: "1",
        generation: null,
        address: pk("alice"),
      },
    ],
    ["/records/prepare", { name: "alice.acme", chainAddress: { network: "ethereum", address: null } }],
    ["/records/prepare", { name: "alice.acme", chainAddress: { network: "ethereum", address: "0x1" } }],
    ["/records/submit", { signedXdr: "AAAA" }],
  ];
  const port = new URL(devnet.rpcUrl).port;
  const normalise = (text: string) =>
    text
      .replaceAll(`:${port}`, ":RPC_PORT")
      .replaceAll(/\\?"ingestedAt\\?":\\?"[^"\\]+\\?"/g, (found) =>
        found.replace(/\d[\d:.TZ-]+/, "INGESTED_AT"),
      );
  const answers: unknown[] = [];
  const record = async (method: "GET" | "POST", url: string, payload?: object) => {
    const response = await app.inject({ method, url, ...(payload === undefined ? {} : { payload }) });
    const headers = Object.fromEntries(
      Object.entries(response.headers).filter(([name]) => !["date", "x-request-id"].includes(name)),
    );
    answers.push({
      request: `${method} ${url}`,
      ...(payload === undefined ? {} : { payload }),
      status: response.statusCode,
      headers: JSON.parse(normalise(JSON.stringify(headers))),
      body: normalise(response.body),
    });
  };
  for (const url of gets) await record("GET", url);
  for (const [url, payload] of posts) await record("POST", url, payload);
  await app.close();
  writeFileSync(output, `${JSON.stringify(answers, null, 2)}\n`);
  console.log(`${answers.length} answers recorded into ${output}`);
} finally {
  await database.close();
  await devnet.stop();
}
