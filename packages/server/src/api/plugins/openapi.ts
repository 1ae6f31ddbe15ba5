// The OpenAPI 3.1 document, generated from the routes' own zod schemas (@fastify/swagger with the zod type
// provider's transform), served at /openapi.json, with an interactive reference at /docs rendered by Scalar from
// its npm package (no CDN at run time). The committed copy, docs/openapi.json, is checked against this output in
// the tests (`npm run openapi` regenerates it).
import swagger from "@fastify/swagger";
import { ERROR_STATUS } from "@namereg/protocol";
import scalar from "@scalar/fastify-api-reference";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { HTTP_ERROR_STATUS, statusOfApiError } from "../../errors.ts";
import { changeWebhooks } from "../change-webhooks.ts";
import { BODY_ERRORS, COMMON_ERRORS, type ErrorCodes } from "../route-rules.ts";
import { refusesUnknownQuery } from "./unknown-query.ts";

export const OPENAPI_PATH = "/openapi.json";
export const DOCS_PREFIX = "/docs";

/** Every error code the service answers with, for the shared error schema. */
const ERROR_CODES = [...Object.keys(ERROR_STATUS), ...Object.keys(HTTP_ERROR_STATUS)].sort();

const ERROR_REF = { $ref: "#/components/schemas/Error" };

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * A route answering plain text rather than JSON (stellar.toml): its 200 in the document, described in these
     * words. Documented here, not as a response schema, since the zod serializer would quote a string body.
     */
    plainTextResponse?: string;
  }
}

/** Spec areas as OpenAPI tags, by the route's first path segments. */
function tagOf(url: string): string {
  const parts = url.split("/").filter((p) => p !== "");
  const [first, second] = parts[0] === "v1" ? parts.slice(1) : parts;
  const area = first ?? "service";
  if (area === "console" && second === "market") return "market";
  const tags: Record<string, string> = {
    health: "status",
    status: "status",
    ledger: "status",
    stats: "status",
    coverage: "archive",
    events: "archive",
    resolve: "resolution",
    names: "resolution",
    records: url.startsWith("/v1/") ? "resolution" : "wallet transactions",
    reverse: "resolution",
    namespaces: "discovery",
    lookup: "discovery",
    showcase: "discovery",
    directory: "directory",
    "subname-policy": "subnames",
    subnames: url.startsWith("/v1/") ? "subnames" : "wallet transactions",
    "chain-policy": "network addresses",
    "chain-address": "network addresses",
    federation: "federation",
    ".well-known": "federation",
    auth: "sessions",
    allocations: "claims",
    "claim-fee": "claims",
    market: "market",
  };
  return tags[area] ?? (area === "console" ? "console" : area);
}

/**
 * The error answers a route declares in its options (`config.errors`, route-rules.ts), grouped by status: each
 * status lists exactly the codes the route can answer with it. A route declaring none falls back to the generic
 * answers below (route-rules.test.ts fails on it, so none ships that way).
 */
function errorResponses(
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
 * A documented route as Fastify saw it. `summary` is the operation's one-line title in the document and in /docs,
 * declared in the route's own `schema.summary` beside its handler (the completeness test fails on one without).
 */
export interface DocumentedRoute {
  readonly method: string;
  readonly url: string;
  readonly summary: string | undefined;
}

const registered = new WeakMap<FastifyInstance, DocumentedRoute[]>();

/** The routes registered after registerOpenApi, as Fastify saw them (for the completeness tests). */
function plainText(description: string | undefined): Record<string, object> {
  if (description === undefined) return {};
  return { 200: { description, content: { "text/plain": { schema: { type: "string" } } } } };
}

export function registeredRoutes(app: FastifyInstance): readonly DocumentedRoute[] {
  return registered.get(app) ?? [];
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const routes: DocumentedRoute[] = [];
  registered.set(app, routes);
  app.addHook("onRoute", (route) => {
    const schema = route.schema as { hide?: boolean; summary?: unknown } | undefined;
    if (schema?.hide === true || route.url.startsWith(DOCS_PREFIX)) return;
    const summary = typeof schema?.summary === "string" ? schema.summary : undefined;
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (method !== "HEAD" && method !== "OPTIONS") routes.push({ method, url: route.url, summary });
    }
  });
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "namereg",
        version: "1",
        description:
          "A read mirror and API for a Soroban naming system on Stellar: resolution, records, subnames, network " +
          "addresses, discovery, the claim queue and fee, the namespace marketplace, prepare → sign → submit for " +
          "wallets, and the owner console. Path segments that name things (namespace, label, child) are matched " +
          "case-insensitively for ASCII letters. Every error is `{ error, detail? }` with a code of the Error schema.",
      },
      components: {
        schemas: {
          Error: {
            type: "object",
            required: ["error"],
            properties: { error: { type: "string", enum: ERROR_CODES }, detail: { type: "string" } },
            additionalProperties: true,
          },
        },
        securitySchemes: {
          session: { type: "http", scheme: "bearer", description: "A SEP-10 wallet session (POST /auth)" },
        },
      },
      webhooks: changeWebhooks(),
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const schema = (out.schema ?? {}) as Record<string, unknown>;
      const responses = (schema.response ?? {}) as Record<string, unknown>;
      const method = Array.isArray(input.route.method)
        ? String(input.route.method[0])
        : String(input.route.method);
      return {
        ...out,
        schema: {
          ...schema,
          tags: [tagOf(out.url)],
          ...(out.url.startsWith("/console") ? { security: [{ session: [] }] } : {}),
          response: {
            ...errorResponses(method, out.url, schema.body !== undefined, input.route.config?.errors),
            ...plainText(input.route.config?.plainTextResponse),
            ...responses,
          },
        },
      };
    },
    transformObject: jsonSchemaTransformObject,
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
  await app.register(scalar, {
    routePrefix: DOCS_PREFIX,
    // Served from the package; no web fonts from elsewhere either. Scalar's own promotions are off: the developer
    // tools bar (which offers "Deploy" and "Generate SDK" on localhost), the "Ask AI" agent and the MCP generator
    // point at Scalar's hosted services, which this reference neither uses nor may reach.
    configuration: {
      url: OPENAPI_PATH,
      withDefaultFonts: false,
      pageTitle: "namereg API reference",
      favicon: "/favicon.svg",
      showDeveloperTools: "never",
      agent: { disabled: true },
      mcp: { disabled: true },
      telemetry: false,
    },
  });
}
