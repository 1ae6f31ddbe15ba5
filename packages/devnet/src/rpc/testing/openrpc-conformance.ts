// Test helper: validates recorded JSON-RPC results against the result schemas of the published Stellar RPC
// OpenRPC document, with the wire-note exceptions (RPC-NOTES.md) applied explicitly.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { RpcExchange } from "./rpc-recorder.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const REPO_ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../../../../..");

export const OPENRPC_PATH =
  process.env.NAMEREG_OPENRPC ??
  resolve(REPO_ROOT, "..", "shared", "conformance", "stellar-rpc-openrpc.json");

interface OpenRpcMethod {
  name: string;
  result: { schema: Record<string, unknown> };
}

type Schema = Record<string, unknown>;

/**
 * Wire-note exceptions: where the server (and RPC-NOTES.md) differ from the document, the document's schema is
 * corrected here, once, by name.
 */
const EXCEPTIONS: Record<string, (schema: Schema) => void> = {
  // stellar-rpc sends sendTransaction.latestLedgerCloseTime as a decimal string (the document's own examples
  // do too); the document types it `number`.
  sendTransaction(schema) {
    const props = schema.properties as Record<string, Schema>;
    props.latestLedgerCloseTime = { type: "string" };
  },
};

export interface Conformance {
  readonly available: true;
  validate(exchanges: readonly RpcExchange[]): { failures: string[]; checked: Map<string, number> };
}

export type ConformanceLoad = Conformance | { readonly available: false; readonly reason: string };

export function loadConformance(): ConformanceLoad {
  if (!existsSync(OPENRPC_PATH)) {
    const reason = `OpenRPC document not found at ${OPENRPC_PATH} (set NAMEREG_OPENRPC)`;
    console.warn(
      [
        "",
        "#".repeat(100),
        "#  WARNING: Stellar RPC conformance checks are SKIPPED",
        `#  ${reason}`,
        "#".repeat(100),
        "",
      ].join("\n"),
    );
    return { available: false, reason };
  }
  const doc = JSON.parse(readFileSync(OPENRPC_PATH, "utf8")) as { methods: OpenRpcMethod[] };
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validators = new Map<string, ValidateFunction>();
  for (const method of doc.methods) {
    const schema = structuredClone(method.result.schema);
    EXCEPTIONS[method.name]?.(schema);
    validators.set(method.name, ajv.compile(schema));
  }
  return {
    available: true,
    validate(exchanges) {
      const failures: string[] = [];
      const checked = new Map<string, number>();
      for (const exchange of exchanges) {
        if (exchange.response.result === undefined) continue;
        const validator = validators.get(exchange.method);
        if (validator === undefined) {
          failures.push(`${exchange.method}: not a method of the OpenRPC document`);
          continue;
        }
        checked.set(exchange.method, (checked.get(exchange.method) ?? 0) + 1);
        if (!validator(exchange.response.result)) {
          failures.push(
            `${exchange.method}: ${ajv.errorsText(validator.errors)} in ${JSON.stringify(exchange.response.result).slice(0, 300)}`,
          );
        }
      }
      return { failures, checked };
    },
  };
}
