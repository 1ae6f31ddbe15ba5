// Docs that run: every example of README.md, docs/*.md and the package READMEs is checked against one
// `namereg dev` (the demo a reader gets from `npm start`) and against the OpenAPI document, shapes and codes, not
// values. Each `curl` is sent and its answer must be what the document says of that route (and no 5xx); every JSON
// block must be a shape the document describes for its section's route (fixtures/doc-shapes.ts); shell blocks call
// `npx namereg` with commands that exist. Then the statements the docs make that a shape cannot hold are checked
// against the running service or the code they describe (fixtures/doc-facts.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USAGE } from "../src/cli-usage.ts";
import { DEV_START_BOUND_MS, type DevProcess, startDevProcess } from "./fixtures/dev-process.ts";
import {
  bareNameregCalls,
  curlRequests,
  type DocBlock,
  type DocRequest,
  docBlocks,
  documentationFiles,
  nameregCommands,
} from "./fixtures/doc-examples.ts";
import { codeFactProblems, serviceFactProblems } from "./fixtures/doc-facts.ts";
import { documentedPath, type ShapeDocument, shapeProblem } from "./fixtures/doc-shapes.ts";
import { freePort } from "./fixtures/free-port.ts";
import { AnswerChecker, type OpenApiDocument } from "./fixtures/openapi-answers.ts";

const ALICE = "GA65XN2ZYGIVGOK7UVO23P5A5TQCVVIBURN4OIR3LPVCBIZ4XTEKEPJV";
/** What the docs' shell variables stand for in the demo. */
const VARIABLES = { LABEL: "winner", ACCOUNT: ALICE };

describe("the documentation's examples, against namereg dev", () => {
  let dev: DevProcess;
  let adminHost = "";
  let document: OpenApiDocument & ShapeDocument;
  let checker: AnswerChecker;
  /** For the docs' JSON: shapes and codes, not values (`"GB…"` stands for an account). */
  let shapes: AnswerChecker;
  const blocks: DocBlock[] = documentationFiles().flatMap(docBlocks);
  let requests: DocRequest[] = [];

  beforeAll(async () => {
    const adminPort = await freePort();
    dev = await startDevProcess({ DEVNET_ADMIN_PORT: String(adminPort) });
    adminHost = `127.0.0.1:${adminPort}`;
    // The running server's own document: what it serves is what the committed one says (openapi.test.ts).
    document = (await (await fetch(`${dev.base}/openapi.json`)).json()) as OpenApiDocument & ShapeDocument;
    checker = new AnswerChecker(document);
    shapes = new AnswerChecker(document, { shapesOnly: true });
    const host = new URL(dev.base).host;
    requests = blocks
      .filter((b) => b.lang === "sh" || b.lang === "bash")
      .flatMap((b) =>
        curlRequests(
          b,
          { ...VARIABLES, API: dev.base },
          { "localhost:8080": host, "127.0.0.1:8080": host, "127.0.0.1:8001": adminHost },
        ),
      );
  }, DEV_START_BOUND_MS + 30_000);

  afterAll(async () => {
    await dev?.stop();
  });

  it("finds the examples: curls, JSON answers and request bodies, shell blocks", () => {
    const json = blocks.filter((b) => b.lang === "json");
    expect(json.length).toBeGreaterThanOrEqual(30);
    expect(requests.filter((r) => r.url.startsWith(dev.base)).length).toBeGreaterThanOrEqual(14);
    expect(blocks.filter((b) => b.lang === "sh").length).toBeGreaterThanOrEqual(10);
  });

  it("shows only JSON the OpenAPI document describes for the section's route", () => {
    const problems: string[] = [];
    for (const block of blocks.filter((b) => b.lang === "json")) {
      let example: unknown;
      try {
        example = JSON.parse(block.text);
      } catch (error) {
        problems.push(`${block.where}: not JSON (${String(error)})`);
        continue;
      }
      const problem = shapeProblem(shapes, document, block.route, example);
      if (problem !== null) {
        const route = block.route === null ? "a webhook" : `${block.route.method} ${block.route.path}`;
        problems.push(`${block.where} (${route}): ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("answers every curl of the API as the OpenAPI document says, with no server error", async () => {
    const problems: string[] = [];
    for (const request of requests.filter((r) => r.url.startsWith(dev.base))) {
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      const type = response.headers.get("content-type");
      const text = await response.text();
      const body = type?.startsWith("application/json") === true ? (JSON.parse(text) as unknown) : text;
      const { pathname } = new URL(request.url);
      const path = documentedPath(document, pathname);
      const problem =
        response.status >= 500
          ? `${response.status} ${text}`
          : path === null
            ? `no operation for ${pathname}`
            : checker.check({
                method: request.method,
                route: path.replace(/\{(\w+)\}/g, ":$1"),
                status: response.status,
                contentType: type,
                body,
              });
      if (problem !== null) problems.push(`${request.where}: ${request.command}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });

  it("runs `npx namereg` in its shell blocks (the command is not on PATH), with commands that exist", () => {
    const known = new Set([...USAGE.matchAll(/^ {2}([a-z-]+)\s/gm)].map((m) => m[1]));
    const shell = blocks.filter((b) => b.lang === "sh" || b.lang === "bash");
    expect(shell.flatMap((b) => bareNameregCalls(b).map((line) => `${b.where}: ${line}`))).toEqual([]);
    const unknown = shell.flatMap((b) =>
      nameregCommands(b)
        .filter((c) => !known.has(c))
        .map((c) => `${b.where}: ${c}`),
    );
    expect(unknown).toEqual([]);
    expect(known.size).toBeGreaterThan(10);
  });

  it("states what the code does: thresholds, allowlists, required variables, the READMEs' code", () => {
    expect(codeFactProblems()).toEqual([]);
  });

  it("states what the service does: caching, CORS, check order, details, stellar.toml, the demo's values", async () => {
    expect(await serviceFactProblems(dev.base)).toEqual([]);
  });

  it("answers the devnet's fault-injection curls (last: they freeze the head)", async () => {
    const admin = requests.filter((r) => r.url.includes(adminHost));
    expect(admin.length).toBeGreaterThanOrEqual(2);
    for (const request of admin) {
      const response = await fetch(request.url, {
        method: request.method,
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      expect({ where: request.where, status: response.status }).toEqual({
        where: request.where,
        status: 200,
      });
      expect(typeof (await response.json())).toBe("object");
    }
  });
});
