// Every error the service answers with is an ApiError (a spec error code with its extra fields), or becomes one in
// the API's error handler. It lives outside api/ so that chain/ and auth/ can raise spec errors without depending
// on the HTTP layer.
import { ERROR_STATUS, type ErrorCode } from "@namereg/protocol";

/**
 * HTTP-level codes the API's catalogue (packages/protocol/src/errors.ts) does not list but a JSON API still needs: answers about the request
 * itself rather than about names.
 */
export const HTTP_ERROR_STATUS = {
  method_not_allowed: 405,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  request_header_fields_too_large: 431,
  // The database is unreachable, too slow or restarting: retry shortly (with Retry-After), nothing was changed.
  database_unavailable: 503,
} as const satisfies Record<string, number>;

export type ApiErrorCode = ErrorCode | keyof typeof HTTP_ERROR_STATUS;

const STATUS: Readonly<Record<ApiErrorCode, number>> = { ...ERROR_STATUS, ...HTTP_ERROR_STATUS };

export function statusOfApiError(code: ApiErrorCode): number {
  return STATUS[code];
}

export type ErrorBody = { readonly error: ApiErrorCode } & Readonly<Record<string, unknown>>;

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly statusCode: number;
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(code: ApiErrorCode, extra: Readonly<Record<string, unknown>> = {}) {
    super(code);
    this.name = "ApiError";
    this.code = code;
    this.statusCode = STATUS[code];
    this.extra = extra;
  }

  /** `{ error, ...extra }`, with `error` first and never overridden by an extra field. */
  body(): ErrorBody {
    const body: Record<string, unknown> = { error: this.code };
    for (const [key, value] of Object.entries(this.extra)) if (key !== "error") body[key] = value;
    return body as ErrorBody;
  }
}

/** The one answer to a failure nobody anticipated; what went wrong stays in the server's log. */
export const INTERNAL_ERROR_BODY: ErrorBody = Object.freeze({
  error: "internal_error",
  detail: "An internal error occurred.",
});
