// JSON-RPC 2.0 envelope handling: named params only, batches, error objects as stellar-rpc sends them, and the
// execution limits (limits.ts). The method handlers are synchronous; a batch yields to the event loop between its
// calls, so one large batch neither holds other clients (a getHealth beside it answers) nor outruns its deadline.
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { RpcContext } from "./context.ts";
import { RpcCode, RpcError } from "./errors.ts";
import type { FaultController } from "./fault-controller.ts";
import type { MethodName } from "./limits.ts";
import { METHODS } from "./methods/index.ts";
import type { Params } from "./params.ts";

type Id = string | number | null;

export interface JsonRpcResponse {
  jsonrpc: "2.0";
  id: Id;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** stellar-rpc's answer to a call that ran past its method's execution limit. */
export const EXCEEDED_PROCESSING_LIMIT = new RpcError(-32001, "request exceeded processing limit threshold");

/**
 * The body to send in pieces (a batch's answers one by one, so neither side builds one giant string), or `timeout`:
 * the request ran past its deadline (HTTP 504), or `aborted`: the client left.
 */
export type JsonRpcOutcome = { kind: "body"; body: Buffer[] } | { kind: "timeout" } | { kind: "aborted" };

const bodyOf = (answer: JsonRpcResponse): JsonRpcOutcome => ({
  kind: "body",
  body: [Buffer.from(JSON.stringify(answer))],
});

export interface JsonRpcRun {
  /** `performance.now()` after which the request is answered 504. */
  readonly deadline: number;
  /** True once the client has gone: the rest of a batch is not worth running. */
  readonly gone: () => boolean;
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
  const started = performance.now();
  let response: JsonRpcResponse;
  try {
    response = { jsonrpc: "2.0", id, result: handler(params, ctx) };
  } catch (error) {
    if (error instanceof RpcError) response = errorResponse(id, error);
    else {
      const message = error instanceof Error ? error.message : String(error);
      response = errorResponse(id, new RpcError(RpcCode.internal, message));
    }
  }
  // stellar-rpc abandons a call at its limit; a synchronous handler here cannot be stopped, so its late answer is
  // replaced by the one the client would have had.
  if (performance.now() - started > ctx.limits.methodExecutionMs[r.method as MethodName])
    return errorResponse(id, EXCEEDED_PROCESSING_LIMIT);
  return response;
}

/** Handles a request body: one call, or a batch answered as an array. */
export async function handleJsonRpc(
  body: string,
  ctx: RpcContext,
  faults: FaultController,
  run: JsonRpcRun,
): Promise<JsonRpcOutcome> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return bodyOf(errorResponse(null, new RpcError(RpcCode.parseError, "invalid JSON request message")));
  }
  if (!Array.isArray(parsed)) {
    const answer = bodyOf(handleOne(parsed, ctx, faults));
    return performance.now() > run.deadline ? { kind: "timeout" } : answer;
  }
  if (parsed.length === 0) {
    return bodyOf(errorResponse(null, new RpcError(RpcCode.invalidRequest, "empty request batch")));
  }
  // Each answer is serialised at once, into bytes outside the JS heap: a page of events takes far less room so than
  // as objects, and the garbage collector does not walk it.
  const parts: Buffer[] = [];
  for (const request of parsed) {
    if (run.gone()) return { kind: "aborted" };
    if (performance.now() > run.deadline) return { kind: "timeout" };
    parts.push(
      Buffer.from(`${parts.length === 0 ? "[" : ","}${JSON.stringify(handleOne(request, ctx, faults))}`),
    );
    await yieldToEventLoop();
  }
  if (performance.now() > run.deadline) return { kind: "timeout" };
  parts.push(Buffer.from("]"));
  return { kind: "body", body: parts };
}
