// Per-route limits on top of the global one (docs/operations.md "Topologies"): the routes that cost the service or the chain most — SEP-10
// challenges and tokens, every prepare (a simulation on the RPC), every submit (a send), the marketplace intent, and
// every public GET that reads contract state live (one or more simulations each) — each group counted apart per client address, in the same store as the global limit (Redis when
// configured, so replicas share it). A request to these routes counts against both limits. Each route names its
// group in its own options (`config.limitGroup`, route-rules.ts); `global` routes count against the global one only.
//
// @fastify/rate-limit's own per-route config replaces the global limit for that route instead of adding to it,
// and its route hooks skip each other on one request; so the groups use its createRateLimit (a check that
// decides nothing by itself) from a hook that runs after the global one.
import { normalizeIP } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import { ApiError } from "../errors.ts";
import type { LimitGroup } from "../route-rules.ts";

export type RouteLimits = Readonly<Record<LimitGroup, number>>;

/** The group a route declared; null: the global limit only. */
export function limitGroupOf(route: Pick<RouteOptions, "method" | "config">): LimitGroup | null {
  const group = route.config?.limitGroup;
  // The HEAD route Fastify adds beside a GET shares its options and runs the GET's handler (a SEP-10 challenge, a
  // live contract read), so it counts in the GET's group: otherwise HEAD would be the way round the group's limit.
  if (group === undefined || group === "global") return null;
  return group;
}

interface LimitResult {
  readonly max?: number;
  readonly remaining?: number;
  readonly ttlInSeconds?: number;
  readonly isExceeded?: boolean;
}

type Check = (request: FastifyRequest) => Promise<LimitResult>;

/** Call after the global rate limit is registered and before any route: the hooks attach as routes are added. */
export function installRouteLimits(app: FastifyInstance, limits: RouteLimits): void {
  const create = (app as unknown as { createRateLimit(options: object): Check }).createRateLimit;
  const checks = new Map<LimitGroup, Check>();
  for (const group of Object.keys(limits) as LimitGroup[]) {
    checks.set(
      group,
      create({
        max: limits[group],
        timeWindow: 60_000,
        // The group in the key keeps its count apart from the global one and from the other groups. The address
        // as the global limit keys it: an IPv6 client by its /64 (it holds all of it, so rotating the interface
        // part would buy a fresh budget each time), an IPv4-mapped address (a dual-stack listener) as the IPv4.
        keyGenerator: (request: FastifyRequest) => `${group}:${normalizeIP(request.ip)}`,
      }),
    );
  }
  app.addHook("onRoute", (route: RouteOptions) => {
    const group = limitGroupOf(route);
    const check = group === null ? undefined : checks.get(group);
    if (check === undefined) return;
    const hook = async (request: FastifyRequest, reply: FastifyReply) => {
      const result = await check(request);
      // Skipped on a store error (as the global limit is): serving beats refusing everyone.
      if (result.max === undefined) return;
      // The stricter, route's own budget is what the client should pace itself by.
      void reply.headers({
        "ratelimit-limit": String(result.max),
        "ratelimit-remaining": String(result.remaining ?? 0),
        "ratelimit-reset": String(result.ttlInSeconds ?? 0),
      });
      if (result.isExceeded === true) {
        void reply.header("retry-after", String(result.ttlInSeconds ?? 60));
        throw new ApiError("rate_limited", { detail: `at most ${result.max} ${group} requests a minute` });
      }
    };
    const existing = route.onRequest;
    route.onRequest =
      existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
  });
}
