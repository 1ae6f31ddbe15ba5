// The OpenAPI 3.1 document, generated from the routes' own zod schemas (@fastify/swagger with the zod type
// provider's transform), served at /openapi.json, with an interactive reference at /docs rendered by Scalar from
// its npm package (no CDN at run time). The committed copy, docs/openapi.json, is checked against this output in
// the tests (`npm run openapi` regenerates it).
import swagger from "@fastify/swagger";
import scalar from "@scalar/fastify-api-reference";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import type { OpenAPIV3_1 } from "openapi-types";
import { changeWebhooks } from "../change-webhooks.ts";
import { ERROR_CODES, errorResponses, frameworkResponses } from "./openapi-errors.ts";
import { addExamples } from "./openapi-examples.ts";
import { addResponseHeaders, responseHeaders } from "./openapi-headers.ts";
import { type BrowserPolicyOptions, docsHelmetOptions, inlineScriptHashes } from "./web-headers.ts";

export const OPENAPI_PATH = "/openapi.json";
export const DOCS_PREFIX = "/docs";

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
 * A documented route as Fastify saw it. `summary` is the operation's one-line title in the document and in /docs,
 * declared in the route's own `schema.summary` beside its handler (the completeness test fails on one without).
 */
export interface DocumentedRoute {
  readonly method: string;
  readonly url: string;
  readonly summary: string | undefined;
}

/** The methods whose bodies Fastify parses (its content-type parser runs for these only). */
const PARSES_BODY = new Set(["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

const registered = new WeakMap<FastifyInstance, DocumentedRoute[]>();

/** The routes registered after registerOpenApi, as Fastify saw them (for the completeness tests). */
function plainText(description: string | undefined): Record<string, object> {
  if (description === undefined) return {};
  return { 200: { description, content: { "text/plain": { schema: { type: "string" } } } } };
}

export function registeredRoutes(app: FastifyInstance): readonly DocumentedRoute[] {
  return registered.get(app) ?? [];
}

export interface OpenApiOptions {
  /** The service's public base URL (PUBLIC_URL): the document's `servers`, so /docs shows full URLs. */
  readonly publicUrl: string;
  /** What the reference's security headers allow (web-headers.ts, docsHelmetOptions). */
  readonly browserPolicy: BrowserPolicyOptions;
}

export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
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
      servers: [{ url: options.publicUrl, description: "This deployment (PUBLIC_URL)" }],
      components: {
        responses: frameworkResponses() as Record<string, OpenAPIV3_1.ResponseObject>,
        headers: responseHeaders() as Record<string, OpenAPIV3_1.HeaderObject>,
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
            // Fastify reads a body on these methods even where the route declares none, so a body too large or
            // not JSON is refused (413, 415) before any handler, as on a route with a body.
            ...errorResponses(
              method,
              out.url,
              schema.body !== undefined || PARSES_BODY.has(method.toUpperCase()),
              input.route.config?.errors,
            ),
            ...plainText(input.route.config?.plainTextResponse),
            ...responses,
          },
        },
      };
    },
    transformObject: (input) => {
      const document = jsonSchemaTransformObject(input) as { paths?: Record<string, Record<string, object>> };
      addResponseHeaders(document.paths ?? {});
      addExamples(document.paths ?? {});
      return document as ReturnType<typeof jsonSchemaTransformObject>;
    },
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
  await app.register(async (docs) => {
    // The reference's own policy (web-headers.ts): its page's inline script is allowed by its hash, taken from
    // the page as Scalar renders it (from the fixed configuration below, nothing of the request's).
    docs.addHook("onSend", async (_request, reply, payload) => {
      const html =
        typeof payload === "string" && String(reply.getHeader("content-type")).startsWith("text/html");
      reply.helmet(docsHelmetOptions(options.browserPolicy, html ? inlineScriptHashes(payload) : []));
      return payload;
    });
    await registerScalar(docs);
  });
}

async function registerScalar(app: FastifyInstance): Promise<void> {
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
