// The web app at `/` (packages/web, built into packages/web/dist by its `prepare` script at `npm ci`; nothing is
// fetched from elsewhere at run time). Files are registered one by one (`wildcard: false`), so the plugin adds the
// app's files and its page addresses (`/name/…`, `/namespace/…`, `/account/…`, `/claims`, `/market…`, answered with
// index.html so a shared link opens the page) and nothing else: no catch-all that would shadow `/v1/*` or change
// how unknown paths answer. Files under assets/ carry a content hash in their name and are cached for a year;
// index.html and the icons are revalidated, so a release shows at the next load.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

export const WEB_ROOT = fileURLToPath(new URL("../../../../web/dist/", import.meta.url));

/** The app's own addresses (packages/web/src/routes.ts): each answers with index.html. */
export const WEB_ROUTES = [
  "/name/:name",
  "/namespace/:namespace",
  "/account/:address",
  "/claims",
  "/market",
  "/market/:namespace",
] as const;

const IMMUTABLE = "public, max-age=31536000, immutable";

export async function registerWebPage(app: FastifyInstance, root: string = WEB_ROOT): Promise<void> {
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
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: "index.html",
    cacheControl: false,
    // @fastify/static 10 hands the Fastify reply here (its types still say ServerResponse).
    setHeaders: (reply: unknown, path: string) => {
      (reply as { header(name: string, value: string): void }).header(
        "cache-control",
        path.includes("/assets/") ? IMMUTABLE : "no-cache",
      );
    },
  });
  for (const url of WEB_ROUTES)
    app.get(url, { schema: { hide: true } }, async (_request, reply) =>
      reply.header("cache-control", "no-cache").sendFile("index.html", root),
    );
}
