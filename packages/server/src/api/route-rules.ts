// What a route declares about itself in its options' `config`, next to its handler: the error codes it can answer
// (the OpenAPI document lists them by status, plugins/openapi.ts) and the per-route limit group it counts in on top
// of the global limit (plugins/route-limits.ts). Both readers take them from the route, so a route's rules live in
// one place; `config` is typed here (and `routeRules` builds it), so a misspelt code or group is a type error, and
// route-rules.test.ts fails on any public route that does not declare both. Every answer may also carry the codes of COMMON_ERRORS (added to all)
// and, with a JSON body, BODY_ERRORS.
import type { FastifyInstance, RouteOptions } from "fastify";
import type { ApiErrorCode } from "./errors.ts";

/** The per-route limit groups (docs/operations.md "Topologies"), each counted apart per client address. */
export type LimitGroup = "auth" | "prepare" | "submit" | "intent" | "chain-read";

/** A route's group, or `global`: the global per-IP limit only. */
export type RouteLimitGroup = LimitGroup | "global";

export type ErrorCodes = readonly ApiErrorCode[];

export interface RouteRules {
  /** The codes this route answers with besides COMMON_ERRORS (and BODY_ERRORS for a route with a body). */
  readonly errors: ErrorCodes;
  readonly limitGroup: RouteLimitGroup;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The error codes this route can answer (route-rules.ts). */
    errors?: ErrorCodes;
    /** The per-route limit group this route counts in, or `global` (route-rules.ts). */
    limitGroup?: RouteLimitGroup;
  }
}

/**
 * A route's rules for its options: `config: routeRules("prepare", [...PREPARE_ERRORS, "no_credit"])`. Typed, so a
 * misspelt group or code does not compile, even where the options are a constant of their own.
 */
export function routeRules(limitGroup: RouteLimitGroup, errors: ErrorCodes): RouteRules {
  return { limitGroup, errors };
}

/** Codes every route can answer. */
// `invalid_request` too: a request with two Host headers, say, is refused before any route's own checks.
export const COMMON_ERRORS: ErrorCodes = [
  "invalid_request",
  "rate_limited",
  "internal_error",
  "database_unavailable",
];

/** What any route with a JSON body can answer before its handler (the body limit, the content type). */
export const BODY_ERRORS: ErrorCodes = ["payload_too_large", "unsupported_media_type"];

/** What the console guard answers before any console route runs (auth/console-guard.ts). */
export const CONSOLE_ERRORS: ErrorCodes = [
  "invalid_request",
  "invalid_name",
  "wallet_session_required",
  "unauthorized",
  "not_namespace_owner",
  "namespace_not_found",
  "namespace_changed",
  "contract_owner_requires_adapter",
  "chain_unavailable",
];

/** Prepare routes build and simulate a transaction (chain/prepare.ts). */
export const PREPARE_ERRORS: ErrorCodes = [
  "invalid_request",
  "invalid_account",
  "insufficient_balance",
  "chain_unavailable",
];

/** Submit routes send a signed transaction. */
export const SUBMIT_ERRORS: ErrorCodes = [
  "invalid_request",
  "chain_unavailable",
  "transaction_not_allowed",
  "payload_too_large",
];

/** What every marketplace route answers while the marketplace is off. */
export const MARKET_ERRORS: ErrorCodes = ["market_disabled"];

/** A route as registered, with what it declared (undefined: nothing). */
export interface DeclaredRoute {
  readonly method: string;
  readonly url: string;
  readonly errors: ErrorCodes | undefined;
  readonly limitGroup: RouteLimitGroup | undefined;
}

const declared = new WeakMap<object, DeclaredRoute[]>();

/** Call before any route: records what each route registered after it declares. */
export function recordRouteRules(app: FastifyInstance): void {
  const routes: DeclaredRoute[] = [];
  declared.set(app, routes);
  app.addHook("onRoute", (route: RouteOptions) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      routes.push({
        method,
        url: route.url,
        errors: route.config?.errors,
        limitGroup: route.config?.limitGroup,
      });
    }
  });
}

/** Every route registered after recordRouteRules, with its declarations (for the tests and the fast path). */
export function declaredRoutes(app: object): readonly DeclaredRoute[] {
  return declared.get(app) ?? [];
}
