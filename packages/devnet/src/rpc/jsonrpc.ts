// JSON-RPC 2.0 envelope handling: named params only, batches, error objects as stellar-rpc sends them.
import type { RpcContext } from "./context.ts";
import { RpcCode, RpcError } from "./errors.ts";
import type { FaultController } from "./fault-controller.ts";
import { METHODS } from "./methods/index.ts";
import type { Params } from "./params.ts";

type Id = string | number | null;

export interface JsonRpcResponse {
  jsonrpc: "2.0";
  id: Id;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

function errorResponse(id: Id, error: RpcError): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: error.toJSON() };
}

function handleOne(request: unknown, ctx: RpcContext, faults: FaultController): JsonRpcResponse {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    return errorResponse(null, new RpcError(RpcCode.invalidRequest, "invalid request message"));
  }
  const r = request as Record<string, unknown>;
  const id: Id = typeof r.id === "string" || typeof r.id === "number" ? r.id : null;
  if (r.jsonrpc !== "2.0")
    return errorResponse(id, new RpcError(RpcCode.invalidRequest, "invalid version marker"));
  if (typeof r.method !== "string" || r.method === "") {
    return errorResponse(id, new RpcError(RpcCode.invalidRequest, "empty method name"));
  }
  const handler = METHODS.get(r.method);
  if (handler === undefined)
    return errorResponse(id, new RpcError(RpcCode.methodNotFound, `no such method "${r.method}"`));
  let params: Params;
  if (r.params === undefined || r.params === null) params = {};
  else if (Array.isArray(r.params)) {
    return errorResponse(
      id,
      new RpcError(
        RpcCode.invalidParams,
        "invalid parameters: positional (array) parameters are not supported",
      ),
    );
  } else if (typeof r.params === "object") params = r.params as Params;
  else return errorResponse(id, new RpcError(RpcCode.invalidParams, "invalid parameters"));
  if (faults.shouldFail())
    return errorResponse(id, new RpcError(RpcCode.internal, "internal error (injected fault)"));
  try {
    return { jsonrpc: "2.0", id, result: handler(params, ctx) };
  } catch (error) {
    if (error instanceof RpcError) return errorResponse(id, error);
    const message = error instanceof Error ? error.message : String(error);
    return errorResponse(id, new RpcError(RpcCode.internal, message));
  }
}

/** Handles a request body; returns the response (an array for a batch). */
export function handleJsonRpc(
  body: string,
  ctx: RpcContext,
  faults: FaultController,
): JsonRpcResponse | JsonRpcResponse[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return errorResponse(null, new RpcError(RpcCode.parseError, "invalid JSON request message"));
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0)
      return errorResponse(null, new RpcError(RpcCode.invalidRequest, "empty request batch"));
    return parsed.map((r) => handleOne(r, ctx, faults));
  }
  return handleOne(parsed, ctx, faults);
}
