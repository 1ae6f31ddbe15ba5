// Requests generated from the service's own OpenAPI document — every operation, every parameter and body field —
// with hostile values (wrong types, unicode, huge and empty values, bad cursors, bad XDR, bad tokens, bad content
// types), seeded so a failure can be replayed. Each answer must be what a client can rely on: no 5xx other than an
// honest 503, a house-format error `{ error: <known code> }` for every 4xx, no stack trace, SQL, file path or driver
// text in any body, and no answer slower than the limit.
import { prng } from "@namereg/server/testing";

export interface FuzzTarget {
  /** Sends one request, returning status, headers and body text. */
  send(request: FuzzRequest): Promise<{ status: number; contentType: string; body: string }>;
}

/** A target that sends through Fastify's `inject` (no sockets): what the bench and its test variant fuzz. */
export function injectTarget(app: {
  inject(opts: object): Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>;
}): FuzzTarget {
  return {
    async send(request) {
      const response = await app.inject({
        method: request.method,
        url: request.url,
        headers: request.headers,
        ...(request.body === undefined ? {} : { payload: request.body }),
      });
      return {
        status: response.statusCode,
        contentType: String(response.headers["content-type"] ?? ""),
        body: response.body,
      };
    },
  };
}

export interface FuzzRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

export interface FuzzFailure {
  readonly request: FuzzRequest;
  readonly status: number;
  readonly why: string;
  readonly body: string;
}

export interface FuzzReport {
  readonly requests: number;
  readonly byStatus: Record<string, number>;
  readonly slowestMs: number;
  readonly failures: FuzzFailure[];
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: { Error?: { properties?: { error?: { enum?: string[] } } } } };
}
interface Operation {
  parameters?: { in: string; name: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  enum?: unknown[];
  anyOf?: Schema[];
}

/** Values that have broken parsers somewhere, plus plausible ones so deeper code runs too. */
const STRINGS = [
  "",
  " ",
  "alice",
  "ALICE",
  "acme",
  "alice.acme",
  "pay.alice.acme",
  "-",
  "a".repeat(64),
  "a".repeat(5000),
  "ålice",
  "😀",
  "\u0000",
  "%00",
  "..",
  "../../etc/passwd",
  "a/b",
  "a%2Fb",
  "<script>",
  "' OR 1=1 --",
  "null",
  "true",
  "-1",
  "0",
  "99999999999999999999999",
  "1e309",
  "0x1234",
  "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7",
  "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN8",
  "CAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
  "ab".repeat(32),
  "zz".repeat(32),
  "AAAAAgAAAAA=",
  "not base64 !!",
  "0000000000000000001-0000000001",
  "eyJhbGciOiJub25lIn0.e30.",
  "ethereum",
  "bitcoin",
  "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359",
];
const JSON_VALUES: unknown[] = [null, true, 0, -1, 1.5, 1e308, [], {}, [1, 2], { a: 1 }, "x".repeat(10_000)];

export function fuzzRequests(document: OpenApiDocument, count: number, seed: number): FuzzRequest[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const value = (): unknown => (random() < 0.75 ? pick(STRINGS) : pick(JSON_VALUES));
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
  const out: FuzzRequest[] = [];
  for (let i = 0; i < count; i++) {
    const { path, method, op } = pick(operations);
    const params = op.parameters ?? [];
    let url = path.replace(/\{(\w+)\}/g, () => encodeURIComponent(String(pick(STRINGS))));
    const query = new URLSearchParams();
    for (const p of params.filter((q) => q.in === "query")) {
      if (random() < 0.7) query.append(p.name, String(value()));
      if (random() < 0.05) query.append(p.name, String(value())); // the same parameter twice
    }
    if (random() < 0.1) query.append(pick(["x", "limit", "__proto__", "constructor"]), String(value()));
    const qs = query.toString();
    if (qs !== "") url += `?${qs}`;
    const headers: Record<string, string> = {};
    if (random() < 0.3) headers.authorization = `Bearer ${pick(STRINGS)}`;
    if (random() < 0.2) headers["x-service-namespace"] = pick(STRINGS);
    let body: string | undefined;
    if (method !== "GET" && method !== "HEAD") {
      const schema = op.requestBody?.content?.["application/json"]?.schema;
      const shape = random();
      if (shape < 0.6 && schema?.properties !== undefined) {
        const fields: Record<string, unknown> = {};
        for (const name of Object.keys(schema.properties)) if (random() < 0.8) fields[name] = value();
        if (random() < 0.1) fields.extra = value();
        body = JSON.stringify(fields);
      } else if (shape < 0.8) {
        body = JSON.stringify(value());
      } else {
        body = pick(["{", "}", "[", "not json", "", '{"a":', "\u0000", "{}".repeat(1000)]);
      }
      headers["content-type"] =
        random() < 0.9 ? "application/json" : pick(["text/plain", "application/xml", ""]);
    }
    out.push({ method, url, headers, ...(body === undefined ? {} : { body }) });
  }
  return out;
}

// What must never leave the process: stack frames, SQL, file paths, driver and library internals.
const LEAKS: readonly [RegExp, string][] = [
  [/\bat [\w.<>]+ \(.*:\d+:\d+\)/, "a stack frame"],
  [/\b(select|insert|update|delete)\b[^"]{0,40}\b(from|into|set|where)\b/i, "SQL"],
  [/\/(work|home|root|usr|tmp)\/[\w./-]+/, "a file path"],
  [/node_modules|\.ts:\d+|\.js:\d+/, "a source location"],
  [
    /\b(ECONNREFUSED|ECONNRESET|DrizzleQueryError|ZodError|TypeError|ReferenceError|pg_|PGlite)\b/,
    "internals",
  ],
];

export async function runFuzz(
  target: FuzzTarget,
  document: OpenApiDocument,
  opts: { count: number; seed: number; slowMs?: number; concurrency?: number },
): Promise<FuzzReport> {
  const codes = new Set(document.components?.schemas?.Error?.properties?.error?.enum ?? []);
  const requests = fuzzRequests(document, opts.count, opts.seed);
  const byStatus: Record<string, number> = {};
  const failures: FuzzFailure[] = [];
  let slowestMs = 0;
  let next = 0;
  const slowMs = opts.slowMs ?? 2000;
  await Promise.all(
    Array.from({ length: opts.concurrency ?? 8 }, async () => {
      while (next < requests.length) {
        const request = requests[next++] as FuzzRequest;
        const started = performance.now();
        const answer = await target.send(request);
        const ms = performance.now() - started;
        slowestMs = Math.max(slowestMs, ms);
        byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
        const fail = (why: string) =>
          failures.push({ request, status: answer.status, why, body: answer.body.slice(0, 500) });
        if (ms > slowMs) fail(`took ${Math.round(ms)} ms`);
        if (answer.status >= 500 && answer.status !== 503) fail("a server error");
        for (const [pattern, what] of LEAKS) if (pattern.test(answer.body)) fail(`the body shows ${what}`);
        if (answer.status >= 400) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(answer.body);
          } catch {
            fail("an error body that is not JSON");
            continue;
          }
          const code = (parsed as { error?: unknown }).error;
          if (typeof code !== "string" || !codes.has(code))
            fail(`error code ${JSON.stringify(code)} is not a known code`);
        }
      }
    }),
  );
  return { requests: requests.length, byStatus, slowestMs, failures };
}
