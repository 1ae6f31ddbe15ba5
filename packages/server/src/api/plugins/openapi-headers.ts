// The response headers of every operation in the OpenAPI document, as the plugins send them: the caching policy
// (api/cache.ts) on every answer, the rate-limit state (rate-limit.ts, route-limits.ts) on every counted answer,
// Retry-After on 429 and 503, and the CORS headers (cors.ts) on the paths open to any origin. They are written once
// in `components.headers` and referred to from each response, which keeps the document small.
import { isPublicPath } from "./cors.ts";

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** `components.headers`. */
export function responseHeaders(): Record<string, object> {
  const integer = { type: "integer", minimum: 0 };
  return {
    CacheControl: {
      description:
        "`no-store` on every answer, errors included: the chain moves every ledger (docs/api.md, Caching).",
      schema: { type: "string", enum: ["no-store"] },
    },
    RateLimitLimit: {
      description: "Requests allowed per window for this client (the IETF RateLimit draft).",
      schema: integer,
    },
    RateLimitRemaining: { description: "Requests left in the current window.", schema: integer },
    RateLimitReset: { description: "Seconds until the window resets.", schema: integer },
    RetryAfter: {
      description: "Seconds to wait before retrying (a 429 over a limit, a 503 whose dependency is down).",
      schema: integer,
    },
    AccessControlAllowOrigin: {
      description: "`*`: any origin may call this public route (no credentials; docs/api.md, CORS).",
      schema: { type: "string", enum: ["*"] },
    },
    AccessControlExposeHeaders: {
      description: "The rate-limit headers and Retry-After, readable by a browser script.",
      schema: { type: "string" },
    },
    Vary: { description: "`Origin`", schema: { type: "string" } },
  };
}

/** The headers of one response of `path` (OpenAPI form, `{name}` segments) with this status. */
export function headersOf(path: string, status: string): Record<string, object> {
  const headers: Record<string, object> = {
    "Cache-Control": ref("CacheControl"),
    "RateLimit-Limit": ref("RateLimitLimit"),
    "RateLimit-Remaining": ref("RateLimitRemaining"),
    "RateLimit-Reset": ref("RateLimitReset"),
  };
  if (status === "429" || status === "503") headers["Retry-After"] = ref("RetryAfter");
  if (isPublicPath(path)) {
    headers["Access-Control-Allow-Origin"] = ref("AccessControlAllowOrigin");
    headers["Access-Control-Expose-Headers"] = ref("AccessControlExposeHeaders");
    headers.Vary = ref("Vary");
  }
  return headers;
}

interface ResponseObject {
  description?: string;
  headers?: Record<string, object>;
}

/** Adds the headers to every response of every operation in `paths`, keeping any a route declared itself. */
export function addResponseHeaders(paths: Record<string, Record<string, { responses?: object }>>): void {
  for (const [path, operations] of Object.entries(paths)) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {}) as [
        string,
        ResponseObject,
      ][]) {
        response.headers = { ...headersOf(path, status), ...response.headers };
      }
    }
  }
}
