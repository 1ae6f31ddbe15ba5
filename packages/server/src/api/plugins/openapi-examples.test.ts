// The document's examples are the demo's own answers (openapi-examples.ts): each still validates against the
// schema of its operation and status, and the document shows them in place of schema placeholders.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  AnswerChecker,
  COMMITTED_DOCUMENT,
  type OpenApiDocument,
} from "../../../test/fixtures/openapi-answers.ts";
import { DEMO_EXAMPLES } from "./openapi-examples.ts";

const document = JSON.parse(readFileSync(COMMITTED_DOCUMENT, "utf8")) as OpenApiDocument & {
  paths: Record<
    string,
    Record<
      string,
      { responses: Record<string, { description: string; content?: Record<string, { example?: unknown }> }> }
    >
  >;
};

describe("the OpenAPI document's examples", () => {
  it("are answers each operation documents, for at least 30 operations", () => {
    const checker = new AnswerChecker(document);
    const problems: string[] = [];
    let checked = 0;
    for (const [operation, byStatus] of Object.entries(DEMO_EXAMPLES)) {
      const [method = "", path = ""] = operation.split(" ");
      for (const [status, body] of Object.entries(byStatus)) {
        checked++;
        const problem = checker.check({
          method: method.toUpperCase(),
          route: path.replace(/\{(\w+)\}/g, ":$1"),
          status: Number(status),
          contentType: "application/json",
          body,
        });
        if (problem !== null) problems.push(problem);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(30);
  });

  it("shows alice.acme's resolution, not placeholders, and no Default Response", () => {
    const resolve = document.paths["/v1/resolve/{namespace}/{label}"]?.get?.responses;
    expect(resolve?.["200"]?.content?.["application/json"]?.example).toMatchObject({
      name: "alice.acme",
      account: "GA65XN2ZYGIVGOK7UVO23P5A5TQCVVIBURN4OIR3LPVCBIZ4XTEKEPJV",
    });
    expect(resolve?.["404"]?.content?.["application/json"]?.example).toMatchObject({
      error: "name_not_found",
    });
    expect(resolve?.["200"]?.description).toBe("Resolve a name to the account to pay");
    const placeholders = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, op]) =>
        Object.entries(op.responses)
          .filter(([, r]) => r.description === "Default Response")
          .map(([status]) => `${method} ${path} ${status}`),
      ),
    );
    expect(placeholders).toEqual([]);
  });
});
