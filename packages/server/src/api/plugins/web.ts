// The web app at `/` (packages/web, built into packages/web/dist by its `prepare` script at `npm ci`; nothing is
// fetched from elsewhere at run time). Files are registered one by one (`wildcard: false`), so the plugin adds the
// app's files and its page addresses (`/name/…`, `/namespace/…`, `/account/…`, `/claims`, `/market…`, `/tx/…`,
// `/contract/…`, answered with index.html so a shared link opens the page) and nothing else: no catch-all that would
// shadow `/v1/*`. An unknown path is the API's JSON 404, except for a browser asking for a page (`Accept` prefers
// text/html) outside the API's paths: that gets the app itself with status 404, which shows its own "Page not
// found" page (`webPageNotFound`). Files under assets/ carry a content hash in their name and are cached for a
// year; index.html and the icons are revalidated, so a release shows at the next load. Under `namereg dev` the
// page's index.html carries one more tag, naming the Demo wallet's address (plugins/demo-wallet.ts): the page offers
// that wallet only when the tag is there, so `serve` and `start` never show it and the page never asks for it there.
// Every answer of the app (pages, files, the not-found page) carries the browser security headers of web-headers.ts.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { negotiate } from "@fastify/accept-negotiator";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.ts";
import { DEMO_WALLET_PATH } from "./demo-wallet.ts";
import type { PageNotFound } from "./errors.ts";

export const WEB_ROOT = fileURLToPath(new URL("../../../../web/dist/", import.meta.url));

/** The app's own addresses (packages/web/src/routes.ts): each answers with index.html. */
export const WEB_ROUTES = [
  "/name/:name",
  "/namespace/:namespace",
  "/namespace/:namespace/webhooks",
  "/account/:address",
  "/claims",
  "/market",
  "/market/:namespace",
  "/tx/:hash",
  "/contract/:id",
] as const;

// Paths that belong to the API, the documents and the app's files: an unknown path under them is always the JSON
// 404, whatever the client accepts (a browser opening `/v1/nothing` must see what the API says, not the app).
const NOT_PAGES =
  /^\/(v1|console|auth|records|subnames|federation|\.well-known|docs|openapi\.json|health|metrics|assets)(\/|$)/;

/** Whether an unknown path is a browser asking for a page: GET or HEAD, outside NOT_PAGES, preferring HTML. */
export function wantsPage(method: string, path: string, accept: string | undefined): boolean {
  if ((method !== "GET" && method !== "HEAD") || NOT_PAGES.test(path) || accept === undefined) return false;
  // A bare wildcard (what fetch and curl send) names no preference: JSON, as API clients have always been answered.
  return negotiate(accept, ["application/json", "text/html"]) === "text/html";
}

/** The tag the page looks for (packages/web/src/wallet/demo.ts reads the same name). */
export const DEMO_WALLET_META = `<meta name="namereg-demo-wallet" content="${DEMO_WALLET_PATH}">`;

export interface WebPageOptions {
  /** The built app; default packages/web/dist. */
  readonly root?: string;
  /** `namereg dev`: index.html names the Demo wallet (DEMO_WALLET_META), so the page offers it. */
  readonly demoWallet?: boolean;
}

/** index.html, read once at start; under `namereg dev` with the Demo wallet's tag added. */
function pageOf(root: string, demoWallet: boolean): string {
  const html = readFileSync(`${root}index.html`, "utf8");
  return demoWallet ? html.replace("</head>", `  ${DEMO_WALLET_META}\n</head>`) : html;
}

/**
 * The not-found answer for browsers (installErrorHandling's `pageNotFound`): index.html, read once at start like
 * the registered files, sent with 404 so the app renders its "Page not found" page and crawlers see the status;
 * undefined when the app is not built.
 */
export function webPageNotFound(options: WebPageOptions = {}): PageNotFound | undefined {
  const root = options.root ?? WEB_ROOT;
  if (!existsSync(`${root}index.html`)) return undefined;
  const html = pageOf(root, options.demoWallet === true);
  return (request, reply) => {
    const path = request.url.split("?", 1)[0] ?? request.url;
    if (!wantsPage(request.method, path, request.headers.accept)) return undefined;
    reply.helmet();
    return reply.code(404).type("text/html; charset=utf-8").send(html);
  };
}

const IMMUTABLE = "public, max-age=31536000, immutable";

/** The app in a scope of its own, whose every answer carries the app's security headers (web-headers.ts). */
export async function registerWebPage(app: FastifyInstance, options: WebPageOptions = {}): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook("onRequest", async (_request, reply) => {
      reply.helmet();
    });
    await registerWebFiles(scope, options);
  });
}

async function registerWebFiles(app: FastifyInstance, options: WebPageOptions): Promise<void> {
  const root = options.root ?? WEB_ROOT;
  if (!existsSync(`${root}index.html`)) {
    // A checkout without `npm ci` (or with --ignore-scripts) has no built app: say how to get one, keep the API.
    app.log.warn({ root }, "web app not built (npm run build -w @namereg/web): / answers 503");
    app.get("/", { schema: { hide: true } }, async (_request, reply) =>
      reply
        .code(503)
        .type("text/plain; charset=utf-8")
        .send(
          "The web app is not built: run `npm run build -w @namereg/web`. The API is at /v1 and /docs.\n",
        ),
    );
    return;
  }
  const page = pageOf(root, options.demoWallet === true);
  const pageNotFound = webPageNotFound(options);
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    // `/` is one of the page addresses below (the file may carry the Demo wallet's tag), not the file as it is.
    index: false,
    cacheControl: false,
    // @fastify/static 10 hands the Fastify reply here (its types still say ServerResponse).
    setHeaders: (reply: unknown, path: string) => {
      (reply as { header(name: string, value: string): void }).header(
        "cache-control",
        path.includes("/assets/") ? IMMUTABLE : "no-cache",
      );
    },
  });
  for (const url of ["/", ...WEB_ROUTES])
    app.get(url, { schema: { hide: true } }, async (request, reply) => {
      // `/name/` matches `/name/:name` with an empty name: that is no page of the app.
      if (Object.values(request.params as Record<string, string>).includes("")) {
        const notFound = pageNotFound?.(request, reply);
        if (notFound === undefined) throw new ApiError("not_found");
        return notFound;
      }
      return reply.header("cache-control", "no-cache").type("text/html; charset=utf-8").send(page);
    });
}
