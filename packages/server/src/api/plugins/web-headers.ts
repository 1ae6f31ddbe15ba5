// The security headers of what a browser loads as a document or its parts (docs/operations.md "Security headers"):
// the web app (`/`, its page addresses, its files, the "Page not found" page) and the API reference at /docs.
// @fastify/helmet is registered on the root with `global: false`, so it adds nothing by itself: the JSON API
// (`/v1/*`, /auth, /console, …) answers exactly as before, CORS included, and only the scopes that serve pages
// call `reply.helmet(…)` (web.ts, openapi.ts). A JSON answer is no document: a browser never renders it, so a
// policy on it would guard nothing and only grow every answer.
//
// The app's policy is the page's whole reach, 'self' and nothing else, except the public RPC (PUBLIC_RPC_URL,
// named to the page by GET /v1/network) that the claim form checks an announcement against (@namereg/client's
// verifyAnnounce): the page calls it itself, not through this service, so a service that lies cannot vouch for its
// own fee. The browser wallets of the Stellar Wallets Kit need nothing here: the extensions (Freighter, LOBSTR,
// Rabet, Hana, …) talk to the page by window.postMessage and injected objects, which CSP does not govern, and the web
// wallets (Albedo, xBull) open their own site in a pop-up, which is a navigation of another window, not a fetch of
// this page; they answer the opener by postMessage, so the opener policy lets pop-ups keep their opener. No
// 'unsafe-inline' anywhere in the app's policy: Vite puts every script and stylesheet in files, and Preact applies
// `style=` props through the CSSOM (`element.style`), which style-src does not govern (the browser tests load every
// page, the Demo wallet's signing and the wallet picker under this policy and fail on any violation logged).
import { createHash } from "node:crypto";
import helmet from "@fastify/helmet";
import type { FastifyInstance, FastifyReply } from "fastify";

/** helmet's options (its own type, through @fastify/helmet's `reply.helmet`). */
type HelmetOptions = NonNullable<Parameters<FastifyReply["helmet"]>[0]>;
type Directives = Record<string, string[]>;

export interface BrowserPolicyOptions {
  /** The service's public base URL (PUBLIC_URL): https turns on HSTS and upgrade-insecure-requests. */
  readonly publicUrl: string;
  /** The Stellar RPC the page itself calls (PUBLIC_RPC_URL); null: none. */
  readonly publicRpcUrl: string | null;
}

const originOf = (url: string) => new URL(url).origin;

/** What every page-serving scope shares: a document that nothing may frame, embed or re-base. */
function commonDirectives(https: boolean): Directives {
  return {
    "default-src": ["'self'"],
    "script-src-attr": ["'none'"],
    "img-src": ["'self'", "data:"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    // Over plain http (`namereg dev`, a local `serve`) there is nothing to upgrade to.
    ...(https ? { "upgrade-insecure-requests": [] } : {}),
  };
}

/** The web app's Content-Security-Policy directives. */
export function appDirectives(options: BrowserPolicyOptions): Directives {
  const https = options.publicUrl.startsWith("https://");
  return {
    ...commonDirectives(https),
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    // The origin, not the full URL: a path in a source expression stops matching after a redirect, and the RPC
    // answers at its origin's paths only what an RPC answers.
    "connect-src": ["'self'", ...(options.publicRpcUrl === null ? [] : [originOf(options.publicRpcUrl)])],
  };
}

/**
 * The API reference's directives (Scalar, served from its npm package): its one inline script (the
 * `createApiReference` call with the fixed configuration of openapi.ts) allowed by its hash, its stylesheets
 * inline ('unsafe-inline' for style-src alone: Scalar's bundle and its Vue components insert `<style>` elements
 * at run time, some without a nonce; styles cannot run code), and the API at PUBLIC_URL for its "Test request"
 * client when PUBLIC_URL is not the origin the page was opened at.
 */
export function docsDirectives(options: BrowserPolicyOptions, scriptHashes: readonly string[]): Directives {
  const https = options.publicUrl.startsWith("https://");
  return {
    ...commonDirectives(https),
    "script-src": ["'self'", ...scriptHashes.map((hash) => `'${hash}'`)],
    "style-src": ["'self'", "'unsafe-inline'"],
    "connect-src": ["'self'", originOf(options.publicUrl)],
  };
}

/** `sha256-…` of each inline script of an HTML page, as CSP names it. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    (match) =>
      `sha256-${createHash("sha256")
        .update(match[1] ?? "")
        .digest("base64")}`,
  );
}

/** helmet's options for a policy: the headers besides CSP are the same for the app and the reference. */
function optionsOf(directives: Directives, https: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives },
    // The app's addresses name what a person looks at (/name/…, /account/G…): no other site learns them, not the
    // RPC, not a wallet's site, not a link's target. Nothing this service calls needs a Referer.
    referrerPolicy: { policy: "no-referrer" },
    // For browsers older than frame-ancestors; the same answer.
    xFrameOptions: { action: "deny" },
    // Albedo and xBull answer the page from their pop-up through window.opener; `same-origin` would cut it.
    crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
    // Only where the service is reached over https (PUBLIC_URL): a browser ignores HSTS over plain http anyway,
    // and `namereg dev` must never teach a browser that localhost is https-only. No includeSubDomains: this
    // service does not speak for the other hosts under its domain.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  };
}

/** Registers @fastify/helmet on the root without applying it; page scopes call `reply.helmet()` (the app's). */
export async function registerWebHeaders(app: FastifyInstance, options: BrowserPolicyOptions): Promise<void> {
  const https = options.publicUrl.startsWith("https://");
  await app.register(helmet, { global: false, ...optionsOf(appDirectives(options), https) });
}

/** The reference's options for `reply.helmet(…)`, given its inline scripts' hashes. */
export function docsHelmetOptions(
  options: BrowserPolicyOptions,
  scriptHashes: readonly string[],
): HelmetOptions {
  const https = options.publicUrl.startsWith("https://");
  return optionsOf(docsDirectives(options, scriptHashes), https);
}
