// The one place errors become responses. Known failures keep their code; anything else is a 500 whose cause is
// logged here and never sent: no SQL, stack, driver or RPC text leaves the process.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, type ApiErrorCode, type ErrorBody, INTERNAL_ERROR_BODY } from "../errors.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The spec's code for invalid input on this route instead of `invalid_request` (e.g. `invalid_node`), or a
     * function choosing one by field; returning undefined keeps `invalid_request`.
     */
    validationCode?: ApiErrorCode | ((field: string) => ApiErrorCode | undefined);
  }
}

const PROBED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

interface ValidationIssue {
  readonly instancePath?: string;
  readonly message?: string;
}

/** Installs the error and not-found handlers on the root instance, so every route shares them. */
export function installErrorHandling(app: FastifyInstance, notFoundPreHandler?: NotFoundPreHandler): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    const { status, body } = toErrorResponse(error, request);
    if (status >= 500) request.log.error({ err: error }, "request failed");
    return reply.code(status).send(body);
  });

  app.setNotFoundHandler(
    notFoundPreHandler === undefined ? {} : { preHandler: notFoundPreHandler },
    (request, reply) => {
      const allowed = allowedMethods(app, request.url);
      if (allowed.length === 0) return reply.code(404).send(new ApiError("not_found").body());
      return reply
        .code(405)
        .header("allow", allowed.join(", "))
        .send(new ApiError("method_not_allowed").body());
    },
  );
}

export type NotFoundPreHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Fastify's own failures outside routing (a malformed URL, an over-long parameter) in the same format. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = toErrorResponse(error, request);
  void reply.code(status).send(body);
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
    const code =
      typeof override === "function"
        ? (fields.map((field) => override(field)).find((c) => c !== undefined) ?? "invalid_request")
        : (override ?? "invalid_request");
    const detail = validation
      .slice(0, 3)
      .map((issue, i) => `${fields[i]}: ${describeIssue(issue)}`)
      .join("; ");
    return { status: 400, body: new ApiError(code, { detail }).body() };
  }

  const client = clientError(error);
  if (client !== null) return client;

  return { status: 500, body: INTERNAL_ERROR_BODY };
}

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
