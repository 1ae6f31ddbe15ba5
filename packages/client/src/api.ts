// A typed client for the namereg API: paths, parameters and answers all come from the OpenAPI document
// (`generated/openapi.ts`, `npm run generate -w @namereg/client`); nothing here writes a response shape by hand.
// Every failure surfaces as a NameregError carrying the spec's `error` code.
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./generated/openapi.ts";

export type { components, paths };
export type NameregPaths = paths;

/** An answer the API refused (4xx/5xx, `{ error, detail }`), or one the client could not get at all. */
export class NameregError extends Error {
  /** The HTTP status; 0 when no answer arrived (network failure). */
  readonly status: number;
  /** The spec's error code (`name_not_found`, `invalid_name`, …); `network_error` when no answer arrived. */
  readonly code: string;
  readonly detail: string | undefined;
  /** The whole error body, with any extra fields the code carries (e.g. `name`). */
  readonly body: Readonly<Record<string, unknown>>;

  constructor(status: number, body: Readonly<Record<string, unknown>>) {
    const code = typeof body.error === "string" ? body.error : "unknown_error";
    const detail = typeof body.detail === "string" ? body.detail : undefined;
    super(detail === undefined ? `${status} ${code}` : `${status} ${code}: ${detail}`);
    this.name = "NameregError";
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.body = body;
  }
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
    const body =
      error !== null && typeof error === "object"
        ? (error as Record<string, unknown>)
        : { error: "unknown_error" };
    throw new NameregError(response.status, body);
  }
  return data as NonNullable<T>;
}

export type ResolveAnswer =
  paths["/v1/resolve/{namespace}/{label}"]["get"]["responses"][200]["content"]["application/json"];

/** `label.namespace` split into its two path segments (the API lower-cases and checks them). */
export function splitName(name: string): { namespace: string; label: string } {
  const dot = name.lastIndexOf(".");
  if (dot <= 0 || dot === name.length - 1) {
    throw new NameregError(400, { error: "invalid_name", detail: "name: must be label.namespace" });
  }
  return { label: name.slice(0, dot), namespace: name.slice(dot + 1) };
}

/** The payment instruction for `label.namespace` from the API (the mirror); see resolveVerified before paying. */
export async function resolve(api: NameregApi, name: string): Promise<ResolveAnswer> {
  return unwrap(api.GET("/v1/resolve/{namespace}/{label}", { params: { path: splitName(name) } }));
}
