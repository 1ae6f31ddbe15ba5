// The error answers of each operation in the OpenAPI document, from what its route declares (route-rules.ts),
// and the answers no operation owns (an unknown path, a method a path does not take), as `components.responses`.
import { ERROR_STATUS } from "@namereg/protocol";
import { HTTP_ERROR_STATUS, statusOfApiError } from "../../errors.ts";
import { BODY_ERRORS, COMMON_ERRORS, type ErrorCodes } from "../route-rules.ts";
import { refusesUnknownQuery } from "./unknown-query.ts";

/** Every error code the service answers with, for the shared error schema. */
export const ERROR_CODES = [...Object.keys(ERROR_STATUS), ...Object.keys(HTTP_ERROR_STATUS)].sort();

export const ERROR_REF = { $ref: "#/components/schemas/Error" };

/**
 * The error answers a route declares in its options (`config.errors`, route-rules.ts), grouped by status: each
 * status lists exactly the codes the route can answer with it. A route declaring none falls back to the generic
 * answers below (route-rules.test.ts fails on it, so none ships that way).
 */
export function errorResponses(
  method: string,
  url: string,
  hasBody: boolean,
  listed: ErrorCodes | undefined,
): Record<string, object> {
  if (listed === undefined) return genericErrorResponses(method, url, hasBody);
  // A /v1 read refuses unknown and repeated query parameters before its handler (unknown-query.ts), whatever the
  // route itself declares.
  const queryErrors: ErrorCodes = refusesUnknownQuery([method], url) ? ["invalid_request"] : [];
  const codes = new Set([...listed, ...COMMON_ERRORS, ...(hasBody ? BODY_ERRORS : []), ...queryErrors]);
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const status = statusOfApiError(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, object> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const sorted = list.sort();
    out[String(status)] = {
      description: sorted.map((c) => `\`${c}\``).join(", "),
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["error"],
            properties: { error: { type: "string", enum: sorted }, detail: { type: "string" } },
            additionalProperties: true,
          },
        },
      },
    };
  }
  return out;
}

/** Routes declaring no errors: the house error format for the statuses a route of this shape can answer. */
function genericErrorResponses(method: string, url: string, hasBody: boolean): Record<string, object> {
  const out: Record<string, object> = {
    "400": { description: "Invalid input (`invalid_request` or the route's own code)", content: json() },
    "429": { description: "`rate_limited`: over the global or the route's per-IP limit", content: json() },
    "500": { description: "`internal_error`", content: json() },
    "503": {
      description: "`database_unavailable` or `chain_unavailable`: retry (Retry-After)",
      content: json(),
    },
  };
  if (url.includes(":") || method === "GET")
    out["404"] = { description: "Not found (see `error`)", content: json() };
  if (method !== "GET")
    out["409"] = { description: "Conflict with the chain's current state", content: json() };
  if (hasBody) {
    out["413"] = { description: "`payload_too_large`", content: json() };
    out["415"] = { description: "`unsupported_media_type`: bodies are JSON", content: json() };
  }
  if (url.startsWith("/console")) {
    out["401"] = { description: "`unauthorized`: a Bearer session token is required", content: json() };
    out["403"] = { description: "`not_namespace_owner`", content: json() };
  }
  return out;
}

const json = () => ({ "application/json": { schema: ERROR_REF } });

/**
 * Answers no operation owns, by status, as named in `components.responses`: what a path no route has, or a method
 * the path does not take, is answered (plugins/errors.ts), and the global limit, which counts those too.
 */
export const FRAMEWORK_RESPONSES: Readonly<Record<number, string>> = {
  400: "InvalidRequest",
  404: "NotFound",
  405: "MethodNotAllowed",
  429: "RateLimited",
};

function errorOf(code: string): object {
  return {
    type: "object",
    required: ["error"],
    properties: { error: { type: "string", enum: [code] }, detail: { type: "string" } },
    additionalProperties: false,
  };
}

/** `components.responses` for the answers of FRAMEWORK_RESPONSES. */
export function frameworkResponses(): Record<string, object> {
  return {
    InvalidRequest: {
      description:
        "`invalid_request`: a request no route could be matched for because the request itself is malformed (a " +
        "URL that does not parse, a path segment too long, a missing or repeated Host header).",
      content: {
        "application/json": {
          schema: errorOf("invalid_request"),
          example: { error: "invalid_request", detail: "The URL is not valid." },
        },
      },
    },
    NotFound: {
      description:
        "`not_found`: no route has this path. A browser asking for a page (Accept: text/html) gets the web " +
        "app's own page-not-found page instead.",
      content: {
        "application/json": { schema: errorOf("not_found"), example: { error: "not_found" } },
        "text/html": { schema: { type: "string" } },
      },
    },
    MethodNotAllowed: {
      description:
        "`method_not_allowed`: the path exists, but not for this method; `Allow` lists those it takes.",
      headers: { Allow: { description: "The methods the path takes", schema: { type: "string" } } },
      content: {
        "application/json": {
          schema: errorOf("method_not_allowed"),
          example: { error: "method_not_allowed" },
        },
      },
    },
    RateLimited: {
      description: "`rate_limited`: over the global per-IP limit (unknown paths count too).",
      content: {
        "application/json": { schema: errorOf("rate_limited"), example: { error: "rate_limited" } },
      },
    },
  };
}
