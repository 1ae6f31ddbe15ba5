// `npm run openapi:examples -- <base URL of a running namereg dev>` (default http://127.0.0.1:8080): asks the demo
// the questions below and writes the answers, as examples per operation and status, to
// src/api/plugins/openapi-examples.json (read by plugins/openapi-examples.ts); then run `npm run openapi`. Arrays are
// cut to their first two items, so the document stays small. Each example must still validate against its schema
// (openapi-examples.test.ts), so a route change that makes one stale says so.
import { writeFile } from "node:fs/promises";

const base = (process.argv[2] ?? "http://127.0.0.1:8080").replace(/\/$/, "");
const alice = "GA65XN2ZYGIVGOK7UVO23P5A5TQCVVIBURN4OIR3LPVCBIZ4XTEKEPJV";

/** [operation as the document keys it, the request to the demo that shows it]. */
const QUESTIONS: readonly (readonly [string, string])[] = [
  ["get /health", "/health"],
  ["get /v1/status", "/v1/status"],
  ["get /v1/ledger/head", "/v1/ledger/head"],
  ["get /v1/stats", "/v1/stats"],
  ["get /v1/network", "/v1/network"],
  ["get /v1/coverage", "/v1/coverage"],
  ["get /v1/events", "/v1/events?subject=alice.acme&limit=2"],
  ["get /v1/subname-policy/{namespace}", "/v1/subname-policy/acme"],
  ["get /v1/subnames/{namespace}/{label}/{child}", "/v1/subnames/acme/alice/pay"],
  ["get /v1/subnames/{namespace}/{label}", "/v1/subnames/acme/alice"],
  ["get /v1/chain-policy/{namespace}", "/v1/chain-policy/acme"],
  ["get /v1/chain-address/{namespace}/{name}/{network}", "/v1/chain-address/acme/alice/ethereum"],
  ["get /v1/resolve/{namespace}/{label}", "/v1/resolve/acme/alice"],
  ["get /v1/resolve/{namespace}/{label}", "/v1/resolve/acme/nobody"],
  ["get /v1/resolve/{namespace}/{label}", "/v1/resolve/acme/Not_A_Label"],
  ["get /v1/names/by-holder/{address}", `/v1/names/by-holder/${alice}`],
  ["get /v1/names/{namespace}/{label}", "/v1/names/acme/alice"],
  ["get /v1/names/{namespace}/{label}", "/v1/names/nosuch/alice"],
  ["get /v1/names/{namespace}/{label}/history", "/v1/names/acme/alice/history?limit=2"],
  ["get /v1/records/{namespace}/{label}", "/v1/records/acme/alice"],
  ["get /v1/records/{namespace}/{label}", "/v1/records/plain/carol"],
  ["get /v1/reverse/{address}", `/v1/reverse/${alice}`],
  ["get /v1/namespaces", "/v1/namespaces"],
  ["get /v1/namespaces/{namespace}", "/v1/namespaces/acme"],
  ["get /v1/namespaces/{namespace}/names", "/v1/namespaces/acme/names?limit=2"],
  ["get /v1/lookup", "/v1/lookup?q=ali"],
  ["get /v1/showcase", "/v1/showcase"],
  ["get /v1/directory/reverse/{address}", `/v1/directory/reverse/${alice}`],
  ["get /v1/directory/namespaces", "/v1/directory/namespaces"],
  ["get /federation", "/federation?q=alice*acme&type=name"],
  ["get /v1/allocations", "/v1/allocations"],
  ["get /v1/claim-fee", "/v1/claim-fee"],
  ["get /v1/claim-fee/{label}", "/v1/claim-fee/winner"],
  ["get /v1/claim-fee/credit/{address}", `/v1/claim-fee/credit/${alice}`],
  ["get /v1/market/listings", "/v1/market/listings"],
  ["get /auth", `/auth?account=${alice}`],
];

/** Arrays cut to two items, recursively: an example shows the shape, not the whole demo. */
function trimmed(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map(trimmed);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimmed(v)]));
  return value;
}

const examples: Record<string, Record<string, unknown>> = {};
for (const [operation, url] of QUESTIONS) {
  const response = await fetch(`${base}${url}`, { headers: { accept: "application/json" } });
  const status = String(response.status);
  const own = examples[operation] ?? {};
  if (status in own) throw new Error(`${operation}: two examples for ${status} (${url})`);
  own[status] = trimmed(await response.json());
  examples[operation] = own;
  console.log(`${status} ${url}`);
}
const target = new URL("../src/api/plugins/openapi-examples.json", import.meta.url);
await writeFile(target, `${JSON.stringify(examples, null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
