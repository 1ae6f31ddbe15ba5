// The web page at `/` (packages/server/web: plain HTML, CSS and one ES module, no build step, nothing fetched
// from elsewhere). Registered file by file (`wildcard: false`), so it adds exactly `/`, `/index.html`, `/app.js`
// and `/style.css`: no catch-all that would shadow `/v1/*` or change how unknown paths answer.
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

export const WEB_ROOT = fileURLToPath(new URL("../../../web/", import.meta.url));

export async function registerWebPage(app: FastifyInstance): Promise<void> {
  await app.register(fastifyStatic, {
    root: WEB_ROOT,
    wildcard: false,
    index: "index.html",
    // Small files that change with each release: revalidate rather than cache blindly.
    cacheControl: true,
    maxAge: 0,
  });
}
