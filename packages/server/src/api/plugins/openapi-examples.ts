// Examples in the OpenAPI document: real answers of `namereg dev`'s demo (alice.acme's resolution, the demo's
// namespaces, claims and listings), recorded by `npm run openapi:examples` (scripts/write-openapi-examples.ts)
// into openapi-examples.json, keyed by operation and status. /docs shows them instead of the placeholders a schema
// alone gives (`"string"`, `0`); openapi-examples.test.ts checks each still validates against its schema.
import examples from "./openapi-examples.json" with { type: "json" };

/** `get /v1/resolve/{namespace}/{label}` → status → the answer's body. */
export type OperationExamples = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

export const DEMO_EXAMPLES: OperationExamples = examples;

interface Operation {
  summary?: string;
  responses?: Record<string, { description?: string; content?: Record<string, { example?: unknown }> }>;
}

/**
 * Sets each JSON answer's `example` from `recorded` and gives a success answer without a description of its own
 * the operation's summary (not @fastify/swagger's "Default Response").
 */
export function addExamples(
  paths: Record<string, Record<string, Operation>>,
  recorded: OperationExamples = DEMO_EXAMPLES,
): void {
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const own = recorded[`${method} ${path}`] ?? {};
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (response.description === "Default Response" && operation.summary !== undefined)
          response.description = operation.summary;
        const media = response.content?.["application/json"];
        if (media !== undefined && status in own) media.example = own[status];
      }
    }
  }
}
