// The one place errors become responses. Known failures keep their code; anything else is a 500 whose cause is
// logged here and never sent: no SQL, stack, driver or RPC text leaves the process.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasSqlState } from "../../db/sql-state.ts";
import { isDatabaseUnavailable } from "../../db/unavailable.ts";
import { noStore } from "../cache.ts";
import { ApiError, type ApiErrorCode, type ErrorBody, INTERNAL_ERROR_BODY } from "../errors.ts";

/** Seconds a client should wait before retrying after 503 database_unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
/** The same after 503 chain_unavailable: the RPC failed, timed out or asked to try again later. */
export const CHAIN_RETRY_AFTER_SECONDS = 5;

/** The 503s of an unavailable dependency, with how long to wait (claim_fee_unavailable is no outage: none). */
const RETRY_AFTER: Partial<Record<string, string>> = {
  database_unavailable: String(DATABASE_RETRY_AFTER_SECONDS),
  chain_unavailable: String(CHAIN_RETRY_AFTER_SECONDS),
};

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The spec's code for invalid input on this route instead of `invalid_request` (e.g. `invalid_node`), or a
     * function choosing one by field (and the problem with it); returning undefined keeps `invalid_request`.
     */
    validationCode?: ApiErrorCode | ((field: string, problem: string) => ApiErrorCode | undefined);
  }
}

const PROBED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

interface ValidationIssue {
  readonly instancePath?: string;
  readonly message?: string;
}

/**
 * Why a request's Host header lines make it one HTTP/1.1 requires a 400 for (RFC 9112 §3.2), or null: more than
 * one (ambiguous: a proxy in front that picked the other would route it differently), or none in an HTTP/1.1
 * request. Node keeps only the first in `headers.host`, so the raw list is counted.
 */
export function hostProblem(rawHeaders: readonly string[], httpVersion: string): string | null {
  let hosts = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    // The usual spellings first: this runs on every request, the cached resolve path's included.
    if (name === "Host" || name === "host" || (name?.length === 4 && name.toLowerCase() === "host")) hosts++;
  }
  if (hosts > 1) return "The request has more than one Host header.";
  if (hosts === 0 && httpVersion === "1.1") return "An HTTP/1.1 request needs a Host header.";
  return null;
}

/**
 * Why a request body's `Content-Encoding` makes it one the API will not read, or null. Fastify does not decode
 * bodies: a gzip body would be parsed as JSON and fail as "not valid JSON", and a plain body labelled gzip would be
 * read as plain where a proxy in front might have read it decoded. So any coding but `identity` is refused (415).
 */
export function encodingProblem(headers: {
  readonly "content-encoding"?: string | undefined;
  readonly "content-length"?: string | undefined;
  readonly "transfer-encoding"?: string | undefined;
}): string | null {
  const coding = headers["content-encoding"];
  if (coding === undefined) return null;
  const codings = coding
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
  if (codings.length === 0) return null;
  // No body, nothing to decode (a GET that names a coding anyway).
  const length = headers["content-length"];
  if (headers["transfer-encoding"] === undefined && (length === undefined || length.trim() === "0"))
    return null;
  return `Request bodies are read as sent: Content-Encoding ${codings.join(", ")} is not supported; send the JSON uncompressed.`;
}

/**
 * The first field of a request's path parameters, query or JSON body that holds a NUL character (U+0000), or null.
 * PostgreSQL text cannot hold one: a route that passes such a value to a query has it refused by the database
 * (SQLSTATE 22021, "invalid byte sequence for encoding UTF8: 0x00"), which is the request's fault, not ours
 * (toErrorResponse). The body is walked without recursion, so deep nesting cannot exhaust the stack.
 */
export function nulField(request: { params?: unknown; query?: unknown; body?: unknown }): string | null {
  // [where, value, is a root]: a root's own keys are named alone (`account`), as validation names fields.
  const stack: [string, unknown, boolean][] = [
    ["body", request.body, true],
    ["querystring", request.query, true],
    ["params", request.params, true],
  ];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [path, value, root] = item;
    if (typeof value === "string") {
      if (value.includes("\0")) return path;
    } else if (typeof value === "object" && value !== null) {
      for (const [key, v] of Object.entries(value)) {
        const at = root ? key : `${path}.${key}`;
        if (key.includes("\0")) return at;
        stack.push([at, v, false]);
      }
    }
  }
  return null;
}

/**
 * Installs the error and not-found handlers on the root instance, so every route shares them. `pageNotFound`, when
 * given, may answer an unknown path itself (the web app's own "Page not found" page for a browser, plugins/web.ts);
 * when it returns undefined the path gets the API's JSON 404.
 */
export function installErrorHandling(
  app: FastifyInstance,
  notFoundPreHandler?: NotFoundPreHandler,
  pageNotFound?: PageNotFound,
): void {
  // Before any route or not-found handler runs; the connection is closed after the answer, since whatever sent
  // such a request cannot be trusted to frame its next one either.
  app.addHook("onRequest", async (request, reply) => {
    const problem = hostProblem(request.raw.rawHeaders, request.raw.httpVersion);
    if (problem !== null) {
      void reply.header("connection", "close");
      throw new ApiError("invalid_request", { detail: problem });
    }
  });
  // Before the body is read: a compressed body is refused, not parsed as if it were plain (encodingProblem).
  app.addHook("preParsing", async (request) => {
    // Fastify never reads a GET's or HEAD's body (nor does the fast resolve path, which must answer alike).
    if (request.method === "GET" || request.method === "HEAD") return;
    const problem = encodingProblem(request.headers);
    if (problem !== null) throw new ApiError("unsupported_media_type", { detail: problem });
  });
  app.setErrorHandler((error: unknown, request, reply) => {
    const { status, body } = toErrorResponse(error, request);
    const retryAfter = RETRY_AFTER[body.error];
    if (retryAfter !== undefined) void reply.header("retry-after", retryAfter);
    if (body.error === "database_unavailable") request.log.warn({ err: error }, "database unavailable");
    else if (status >= 500) request.log.error({ err: error }, "request failed");
    return reply.code(status).send(body);
  });

  app.setNotFoundHandler(
    notFoundPreHandler === undefined ? {} : { preHandler: notFoundPreHandler },
    (request, reply) => {
      const allowed = allowedMethods(app, request.url);
      if (allowed.length === 0)
        return pageNotFound?.(request, reply) ?? reply.code(404).send(new ApiError("not_found").body());
      return reply
        .code(405)
        .header("allow", allowed.join(", "))
        .send(new ApiError("method_not_allowed").body());
    },
  );
}

export type NotFoundPreHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Answers an unknown path with a page of its own, or returns undefined to leave it to the JSON 404. */
export type PageNotFound = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;

// Node's HTTP parser rejects some requests before Fastify sees them (headers too large, invalid characters, a
// request that did not arrive in time). They get the house format too, written straight to the socket.
const PARSER_ERRORS: Readonly<
  Record<string, { status: number; reason: string; code: ApiErrorCode; detail: string }>
> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: "Request Header Fields Too Large",
    code: "request_header_fields_too_large",
    detail: "The request headers are too large.",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: "Request Timeout",
    code: "request_timeout",
    detail: "The request did not arrive in time.",
  },
};

export function clientErrorHandler(
  error: Error & { code?: string },
  socket: import("node:net").Socket,
): void {
  if (!socket.writable) {
    socket.destroy(error);
    return;
  }
  const known = error.code === undefined ? undefined : PARSER_ERRORS[error.code];
  const answer = known ?? {
    status: 400,
    reason: "Bad Request",
    code: "invalid_request" as const,
    detail: "The request is not valid HTTP (bad header name or value, or malformed framing).",
  };
  const body = JSON.stringify(new ApiError(answer.code, { detail: answer.detail }).body());
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      // Written below Fastify, so the app-wide caching policy (api/cache.ts) is repeated here.
      `cache-control: no-store\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * A CONNECT request never reaches Fastify: Node hands it to the server's `connect` listeners and, with none,
 * destroys the socket without a word. The service tunnels nothing, so it answers 405 in the house format.
 */
export function connectRefused(_request: unknown, socket: import("node:stream").Duplex): void {
  const body = JSON.stringify(new ApiError("method_not_allowed").body());
  socket.end(
    "HTTP/1.1 405 Method Not Allowed\r\ncontent-type: application/json; charset=utf-8\r\n" +
      `cache-control: no-store\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** Fastify's own failures outside routing (a malformed URL, an over-long parameter) in the same format. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = toErrorResponse(error, request);
  // Raised while routing, before any hook: the caching policy's hook (api/cache.ts) has not run.
  void noStore(reply).code(status).send(body);
}

/**
 * frameworkErrors, also telling `onAnswer` what it sent: its answers pass no hook, so the answer log
 * (plugins/answer-log.ts) would not see them.
 */
export function frameworkErrorsTold(
  onAnswer: ((answer: { method: string; status: number; body: ErrorBody }) => void) | null,
): typeof frameworkErrors {
  if (onAnswer === null) return frameworkErrors;
  return (error, request, reply) => {
    frameworkErrors(error, request, reply);
    onAnswer({ method: request.method, ...toErrorResponse(error, request) });
  };
}

export function toErrorResponse(
  error: unknown,
  request: FastifyRequest,
): { status: number; body: ErrorBody } {
  if (error instanceof ApiError) return { status: error.statusCode, body: error.body() };

  const validation = validationIssues(error);
  if (validation !== null) {
    const context = (error as { validationContext?: string }).validationContext ?? "request";
    const fields = validation.map((issue) => fieldOf(issue, context));
    const override = request.routeOptions.config?.validationCode;
    const problems = validation.map(describeIssue);
    const code =
      typeof override === "function"
        ? (fields.map((field, i) => override(field, problems[i] ?? "")).find((c) => c !== undefined) ??
          "invalid_request")
        : (override ?? "invalid_request");
    const detail = validation
      .slice(0, 3)
      .map((_, i) => `${fields[i]}: ${problems[i]}`)
      .join("; ");
    return { status: 400, body: new ApiError(code, { detail }).body() };
  }

  const client = clientError(error);
  if (client !== null) return client;

  // The database refused a NUL character, and the request carried one: its value, not our fault. Checked here, at
  // the failure, so a route that refuses the value itself first keeps its own code (invalid_node, bad_address).
  if (hasSqlState(error, NUL_REFUSED_SQLSTATE)) {
    const field = nulField(request);
    if (field !== null) {
      const refused = new ApiError("invalid_request", {
        detail: `${field}: must not contain a NUL character (U+0000)`,
      });
      return { status: refused.statusCode, body: refused.body() };
    }
  }

  if (isDatabaseUnavailable(error)) {
    const unavailable = new ApiError("database_unavailable", {
      detail: "The database is not answering right now; nothing was changed. Retry shortly.",
    });
    return { status: unavailable.statusCode, body: unavailable.body() };
  }

  return { status: 500, body: INTERNAL_ERROR_BODY };
}

/** character_not_in_repertoire: PostgreSQL's answer to a NUL in a text parameter (PGlite's too). */
const NUL_REFUSED_SQLSTATE = "22021";

function validationIssues(error: unknown): readonly ValidationIssue[] | null {
  if (typeof error !== "object" || error === null) return null;
  const validation = (error as { validation?: unknown }).validation;
  return Array.isArray(validation) && validation.length > 0 ? (validation as ValidationIssue[]) : null;
}

function describeIssue(issue: ValidationIssue): string {
  const message = issue.message ?? "is invalid";
  // zod says "Invalid input: expected string, received undefined" for a missing field.
  return message.endsWith("received undefined") ? "is required" : message;
}

function fieldOf(issue: ValidationIssue, context: string): string {
  const path = (issue.instancePath ?? "").split("/").filter((s) => s !== "");
  return path.length === 0 ? context : path.join(".");
}

const CLIENT_ERRORS: Readonly<Record<string, { code: ApiErrorCode; detail?: string }>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: "invalid_request", detail: "The request body is not valid JSON." },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: "invalid_request",
    detail: "The request body is empty but its content type is JSON.",
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: "invalid_request",
    detail: "The Content-Length header does not match the body.",
  },
  FST_ERR_BAD_URL: { code: "invalid_request", detail: "The URL is not valid." },
  FST_ERR_MAX_PARAM_LENGTH: { code: "invalid_request", detail: "A path segment is too long." },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: "payload_too_large" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: "unsupported_media_type" },
};

/**
 * Only Fastify's own errors are trusted to describe the request. A status code on any other error may come from
 * a driver or an upstream HTTP call, which is our failure, not the client's.
 */
function clientError(error: unknown): { status: number; body: ErrorBody } | null {
  if (typeof error !== "object" || error === null) return null;
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (typeof code !== "string" || !code.startsWith("FST_")) return null;
  if (typeof statusCode !== "number" || statusCode < 400 || statusCode >= 500) return null;
  const known = CLIENT_ERRORS[code];
  if (known !== undefined) {
    const apiError = new ApiError(known.code, known.detail === undefined ? {} : { detail: known.detail });
    return { status: apiError.statusCode, body: apiError.body() };
  }
  return { status: statusCode, body: new ApiError("invalid_request").body() };
}

/** The methods some route answers for this path, for a 405 instead of a 404. */
function allowedMethods(app: FastifyInstance, url: string): string[] {
  const path = url.split("?", 1)[0] ?? url;
  return PROBED_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
}
