// Cross-origin access (docs/api.md "Conventions"; docs/api.md "Prepare and submit (not under /v1)"): public data, and the routes a wallet's web app calls itself — SEP-10
// sign-in (/auth) and the holder's prepare/submit (/records, /subnames). Those are authorised by signatures and
// bearer tokens, never by cookies, so any origin may call them (no credentials mode). The owner console gets no
// CORS headers: browsers keep other sites' pages from calling it with an owner's session.
import cors, { type FastifyCorsOptions } from "@fastify/cors";
import type { FastifyInstance } from "fastify";

/**
 * Path prefixes open to any origin. A prefix covers itself and everything below it (`/v1` covers `/v1/x`, not
 * `/v1x`). Routes that become public are opted in here.
 */
export const PUBLIC_PREFIXES: readonly string[] = [
  "/v1",
  "/health",
  "/federation",
  "/.well-known/stellar.toml",
  // Wallet web apps: sign-in, and prepare → sign → submit of the holder's own transactions.
  "/auth",
  "/records",
  "/subnames",
];

/** Headers a browser script may read: the rate-limit state, so clients can back off. */
const EXPOSED_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"];

const PUBLIC: FastifyCorsOptions = {
  origin: "*",
  methods: ["GET", "HEAD", "POST"],
  // Bearer tokens (POST /auth/logout) and JSON bodies; cookies are never used, so no credentials mode.
  allowedHeaders: ["Authorization", "Content-Type"],
  exposedHeaders: EXPOSED_HEADERS,
  maxAge: 86_400,
  // A bare OPTIONS without Origin is not a browser preflight; answer it plainly rather than with a text error.
  strictPreflight: false,
};

const PRIVATE: FastifyCorsOptions = { origin: false };

/** What the plugin adds to a GET of a public path, in its order (the fast resolve path sends the same). */
export const PUBLIC_GET_HEADERS: Readonly<Record<string, string>> = {
  vary: "Origin",
  "access-control-allow-origin": "*",
  "access-control-expose-headers": EXPOSED_HEADERS.join(", "),
};

export function isPublicPath(url: string, prefixes: readonly string[] = PUBLIC_PREFIXES): boolean {
  const path = url.split("?", 1)[0] ?? url;
  return prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

export async function registerCors(
  app: FastifyInstance,
  prefixes: readonly string[] = PUBLIC_PREFIXES,
): Promise<void> {
  await app.register(cors, {
    delegator: (request, callback) => callback(null, isPublicPath(request.url, prefixes) ? PUBLIC : PRIVATE),
  });
}
