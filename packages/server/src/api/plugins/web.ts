// The web app at `/` (packages/web, built into packages/web/dist by its `prepare` script at `npm ci`; nothing is
// fetched from elsewhere at run time). Files are registered one by one (`wildcard: false`), so the plugin adds the
// app's files and its page addresses (`/name/…`, `/namespace/…`, `/account/…`, `/claims`, `/market…`, answered with
// index.html so a shared link opens the page) and nothing else: no catch-all that would shadow `/v1/*` or change
// how unknown paths answer. Files under assets/ carry a content hash in their name and are cached for a year;
// index.html and the icons are revalidated, so a release shows at the next load. Under `namereg dev` the page's
// index.html carries one more tag, naming the Demo wallet's address (plugins/demo-wallet.ts): the page offers that
// wallet only when the tag is there, so `serve` and `start` never show it and the page never asks for it there.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { DEMO_WALLET_PATH } from "./demo-wallet.ts";

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

/** The tag the page looks for (packages/web/src/wallet/demo.ts reads the same name). */
export const DEMO_WALLET_META = `<meta name="namereg-demo-wallet" content="${DEMO_WALLET_PATH}">`;

export interface WebPageOptions {
  /** The built app; default packages/web/dist. */
  readonly root?: string;
  /** `namereg dev`: index.html names the Demo wallet (DEMO_WALLET_META), so the page offers it. */
  readonly demoWallet?: boolean;
}

export async function registerWebPage(app: FastifyInstance, options: WebPageOptions = {}): Promise<void> {
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
  // The dev page is index.html with the tag added, answered at `/` and the page addresses in place of the file.
  const devPage = options.demoWallet
    ? (await readFile(`${root}index.html`, "utf8")).replace("</head>", `  ${DEMO_WALLET_META}\n</head>`)
    : null;
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: devPage === null ? "index.html" : false,
    cacheControl: false,
    // @fastify/static 10 hands the Fastify reply here (its types still say ServerResponse).
    setHeaders: (reply: unknown, path: string) => {
      (reply as { header(name: string, value: string): void }).header(
        "cache-control",
        path.includes("/assets/") ? IMMUTABLE : "no-cache",
      );
    },
  });
  for (const url of devPage === null ? WEB_ROUTES : ["/", ...WEB_ROUTES])
    app.get(url, { schema: { hide: true } }, async (_request, reply) => {
      reply.header("cache-control", "no-cache");
      return devPage === null
        ? reply.sendFile("index.html", root)
        : reply.type("text/html; charset=utf-8").send(devPage);
    });
}
