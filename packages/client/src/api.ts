// A typed client for the namereg API: paths, parameters and answers all come from the OpenAPI document
// (`generated/openapi.ts`, `npm run generate -w @namereg/client`); nothing here writes a response shape by hand.
// Every failure surfaces as a NameregError carrying the spec's `error` code.
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./generated/openapi.ts";
// Type only: verify-prepared.ts extends NameregError, so a value import would be a cycle.
import type { PreparedRejection } from "./verify-prepared.ts";

export type { components, paths };
export type NameregPaths = paths;

/** Every `error` code the API documents (docs/openapi.json `components.schemas.Error`). */
export type ApiErrorCode = components["schemas"]["Error"]["error"] | "transaction_failed";

/**
 * Codes the client itself gives: `network_error` (no answer arrived), `unknown_error` (an answer that is not the
 * API's error body, e.g. a proxy's HTML page), `resolution_mismatch` and `chain_unavailable` (resolveVerified),
 * `prepared_transaction_rejected` (verifyPrepared).
 */
export type ClientErrorCode =
  | "network_error"
  | "unknown_error"
  | "resolution_mismatch"
  | "chain_unavailable"
  | "prepared_transaction_rejected";

export type NameregErrorCode = ApiErrorCode | ClientErrorCode;

/** An error body: the code, an optional detail, and the fields the code carries (`name`, `txHash`, …). */
export type NameregErrorBody = { readonly error: NameregErrorCode; readonly detail?: string } & Readonly<
  Record<string, unknown>
>;

/** An answer the API refused (4xx/5xx, `{ error, detail, …fields }`), or one the client could not get at all. */
export class NameregError extends Error {
  /** The HTTP status; 0 when no answer decided it (no answer arrived, or a check in the client refused). */
  readonly status: number;
  /** The spec's error code (`name_not_found`, `invalid_name`, …), or one of the client's own (ClientErrorCode). */
  readonly code: NameregErrorCode;
  readonly detail: string | undefined;
  /** The whole error body, with every field the code carries (e.g. `name`; `txHash` for `transaction_failed`). */
  readonly body: NameregErrorBody;

  constructor(status: number, body: Readonly<Record<string, unknown>>) {
    const code = (typeof body.error === "string" ? body.error : "unknown_error") as NameregErrorCode;
    const detail = typeof body.detail === "string" ? body.detail : undefined;
    super(detail === undefined ? `${status} ${code}` : `${status} ${code}: ${detail}`);
    this.name = "NameregError";
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.body = { ...body, error: code };
  }

  /** A field the error body carries, e.g. `error.field("name")`; undefined when absent. */
  field(name: string): unknown {
    return this.body[name];
  }
}

/**
 * `error` is a NameregError with this code (narrowing `unknown` in a catch block). For
 * `prepared_transaction_rejected` it is the client's own refusal (PreparedTransactionRejected), with `.reason`.
 */
export function isNameregError(
  error: unknown,
  code: "prepared_transaction_rejected",
): error is NameregError & {
  readonly code: "prepared_transaction_rejected";
  readonly reason: PreparedRejection;
};
export function isNameregError<C extends NameregErrorCode>(
  error: unknown,
  code: C,
): error is NameregError & { readonly code: C };
export function isNameregError(error: unknown, code?: NameregErrorCode): error is NameregError;
export function isNameregError(error: unknown, code?: NameregErrorCode): error is NameregError {
  if (!(error instanceof NameregError) || (code !== undefined && error.code !== code)) return false;
  // Only the client's refusal carries a reason: an answer claiming this code (the API never sends it) is not one.
  return (
    code !== "prepared_transaction_rejected" || typeof (error as { reason?: unknown }).reason === "string"
  );
}

export interface NameregClientOptions {
  /** The API's origin, e.g. `https://names.example.com`. */
  readonly baseUrl: string;
  /** Default: the global fetch (Node 18+, browsers). */
  readonly fetch?: typeof globalThis.fetch;
  readonly headers?: Readonly<Record<string, string>>;
}

export type NameregApi = Client<paths>;

/** The raw typed client (openapi-fetch): `api.GET("/v1/resolve/{namespace}/{label}", { params: … })`. */
export function createApi(options: NameregClientOptions): NameregApi {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  });
}

/** openapi-fetch's `{ data, error, response }` as the data, or a thrown NameregError. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<NonNullable<T>> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (cause) {
    const error = new NameregError(0, { error: "network_error", detail: String(cause) });
    throw Object.assign(error, { cause });
  }
  const { data, error, response } = result;
  if (!response.ok || data === undefined || data === null) {
    // Not the API's own body (a proxy's page, an empty answer): the status and what came are all there is.
    const body =
      error !== null && typeof error === "object" && typeof (error as { error?: unknown }).error === "string"
        ? (error as Record<string, unknown>)
        : {
            error: "unknown_error",
            detail: `HTTP ${response.status}${typeof error === "string" && error !== "" ? `: ${error.slice(0, 200)}` : ""}`,
          };
    throw new NameregError(response.status, body);
  }
  return data as NonNullable<T>;
}

export type ResolveAnswer =
  paths["/v1/resolve/{namespace}/{label}"]["get"]["responses"][200]["content"]["application/json"];

type SubnameAnswer =
  paths["/v1/subnames/{namespace}/{label}/{child}"]["get"]["responses"][200]["content"]["application/json"];

/** Where to pay `child.label.namespace`: the subname's stored address while it is active. */
export interface SubnameResolution {
  /** `child.label.namespace`, lower-cased. */
  readonly name: string;
  /** `label.namespace`. */
  readonly parent: string;
  /** The pay-to account: the address the parent's holder stored for the child. */
  readonly account: string;
  /** Who controls the subname: the parent's current holder. */
  readonly controller: string;
  /** The parent's expiry (ISO 8601), which the subname shares; null for none. */
  readonly expires_at: string | null;
  /** The child's generation (decimal string), for a later change or removal. */
  readonly generation: string;
}

/** A name split into its path segments: `label.namespace`, or `child.label.namespace` for a subname. */
export function splitName(name: string): { namespace: string; label: string; child?: string } {
  const parts = name.split(".");
  const [a, b, c] = parts;
  if (parts.some((part) => part === "") || a === undefined || b === undefined || parts.length > 3) {
    throw new NameregError(400, {
      error: "invalid_name",
      detail: "name: must be label.namespace, or child.label.namespace for a subname",
      name,
    });
  }
  return c === undefined ? { label: a, namespace: b } : { child: a, label: b, namespace: c };
}

/**
 * The payment instruction for `label.namespace` (GET /v1/resolve) or `child.label.namespace` (GET
 * /v1/subnames/…: the child's address while it is active, else 404 `name_not_found`) from the API, the mirror;
 * see resolveVerified before paying.
 */
export function resolve(api: NameregApi, name: `${string}.${string}.${string}`): Promise<SubnameResolution>;
export function resolve(api: NameregApi, name: `${string}.${string}`): Promise<ResolveAnswer>;
export function resolve(api: NameregApi, name: string): Promise<ResolveAnswer | SubnameResolution>;
export async function resolve(api: NameregApi, name: string): Promise<ResolveAnswer | SubnameResolution> {
  const { namespace, label, child } = splitName(name);
  if (child === undefined) {
    return unwrap(api.GET("/v1/resolve/{namespace}/{label}", { params: { path: { namespace, label } } }));
  }
  const answer: SubnameAnswer = await unwrap(
    api.GET("/v1/subnames/{namespace}/{label}/{child}", { params: { path: { namespace, label, child } } }),
  );
  const record = answer.record;
  // The same rule as the API's reads of a subname (chain-address): only an active child resolves.
  if (record === null || !record.active || record.controller === null) {
    throw new NameregError(404, {
      error: "name_not_found",
      detail: `${answer.name} is not an active subname`,
      name: answer.name,
    });
  }
  return {
    name: answer.name,
    parent: answer.parent,
    account: record.address,
    controller: record.controller,
    expires_at: record.expiresAt,
    generation: record.generation,
  };
}
