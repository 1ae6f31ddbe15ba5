// GET /v1/namespaces, /v1/namespaces/{namespace}, /v1/lookup and /v1/showcase (docs/api.md "Discovery: namespaces, lookup, showcase"): public discovery over
// the mirror. None of them is scoped by billing; only the directory is (docs/billing.md).
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { isoOfSeconds } from "../../common/iso-seconds.ts";
import { ApiError } from "../../errors.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { routeRules } from "../../route-rules.ts";
import { NAME_SEGMENT_ROUTE } from "../path-params.ts";
import { LOOKUP_LIMIT, LOOKUP_MAX_QUERY, planLookup, searchLookup } from "./lookup.ts";
import { asciiLower, httpSubnamePolicy, NamespaceParam, SubnamePolicy, Timestamp } from "./namespace.ts";
import {
  encodeNamesCursor,
  NamespaceNamesQuery,
  NamespaceNamesResponse,
  namesCursor,
} from "./namespace-names.ts";
import {
  namesOfNamespace,
  namespaceExists,
  namespaceList,
  namespaceWithProfile,
  showcaseNamespaces,
} from "./queries.ts";

export const NAMESPACE_LIST_LIMIT = 500;
export const SHOWCASE_LIMIT = 12;

const Count = z.number().int().nonnegative();
const Method = z.enum(["allocate", "reserved"]);

const NamespaceListResponse = z.object({
  namespaces: z.array(
    z.object({
      label: z.string(),
      displayName: z.string().nullable(),
      subnamePolicy: SubnamePolicy,
      activated: z.boolean(),
      awardedAt: Timestamp.nullable(),
      method: Method,
    }),
  ),
  truncated: z.boolean(),
});

const NamespaceResponse = z.object({
  label: z.string(),
  node: z.string(),
  operator: z.string(),
  displayName: z.string().nullable(),
  subnamePolicy: SubnamePolicy,
  method: Method,
  awardLedger: z.number().int(),
  awardedAt: Timestamp.nullable(),
  issuedNames: Count,
  registrarId: z.string(),
  resolverId: z.string().nullable(),
  chainNetworks: z.array(z.string()),
  locked: z.boolean(),
});

const RANGE = `must be 1 to ${LOOKUP_MAX_QUERY} characters`;

const LookupQuery = z.strictObject({
  // A repeated parameter arrives as an array; a missing one keeps zod's message, which reads "is required".
  q: z
    .string({ error: (issue) => (issue.input === undefined ? undefined : "must be given once") })
    .min(1, RANGE)
    .max(LOOKUP_MAX_QUERY, RANGE)
    .transform(asciiLower),
});

const LookupResponse = z.object({
  q: z.string(),
  namespaces: z.array(z.object({ label: z.string(), displayName: z.string().nullable() })).max(LOOKUP_LIMIT),
  names: z.array(z.object({ name: z.string(), label: z.string(), namespace: z.string() })).max(LOOKUP_LIMIT),
});

const ShowcaseResponse = z.object({
  namespaces: z.array(
    z.object({
      label: z.string(),
      displayName: z.string().nullable(),
      logo: z.string().nullable(),
      issuedNames: Count,
    }),
  ),
});

const asMethod = (stored: string) => Method.parse(stored);

export const discoveryRoutes: FastifyPluginAsyncZod<Pick<RouteDeps, "db" | "resolution">> = async (
  app,
  { db, resolution },
) => {
  const { replica } = db;
  const { clock } = resolution;

  const namespacesRoute = {
    schema: { summary: "Every namespace", response: { 200: NamespaceListResponse } },
    config: routeRules("global", ["invalid_request"]),
  };
  app.get("/v1/namespaces", namespacesRoute, async () => {
    const rows = await namespaceList(replica, NAMESPACE_LIST_LIMIT + 1);
    return {
      namespaces: rows.slice(0, NAMESPACE_LIST_LIMIT).map((row) => ({
        label: row.label,
        displayName: row.displayName,
        subnamePolicy: httpSubnamePolicy(row.subnamePolicy),
        // Activated: the owner has deployed or set a resolver, so its names can carry records.
        activated: row.resolver !== null,
        awardedAt: row.allocatedAt?.toISOString() ?? null,
        method: asMethod(row.method),
      })),
      truncated: rows.length > NAMESPACE_LIST_LIMIT,
    };
  });

  app.get(
    "/v1/namespaces/:namespace",
    {
      schema: {
        summary: "A namespace: operator, policies, names issued",
        params: z.strictObject({ namespace: NamespaceParam }),
        response: { 200: NamespaceResponse },
      },
      config: { ...NAME_SEGMENT_ROUTE, ...routeRules("global", ["invalid_name", "namespace_not_found"]) },
    },
    async (request) => {
      const { namespace } = request.params;
      const row = await namespaceWithProfile(replica, namespace);
      if (row === undefined) throw new ApiError("namespace_not_found", { namespace });
      const { ns } = row;
      return {
        label: ns.label,
        node: ns.node,
        operator: ns.owner,
        displayName: row.displayName,
        subnamePolicy: httpSubnamePolicy(ns.subnamePolicy),
        method: asMethod(ns.method),
        awardLedger: ns.allocatedLedger,
        awardedAt: ns.allocatedAt?.toISOString() ?? null,
        issuedNames: ns.issuedNames,
        registrarId: ns.registrar,
        resolverId: ns.resolver,
        chainNetworks: ns.chainNetworks,
        locked: ns.locked,
      };
    },
  );

  app.get(
    "/v1/namespaces/:namespace/names",
    {
      schema: {
        summary: "The names issued in a namespace, by label, paged",
        params: z.strictObject({ namespace: NamespaceParam }),
        querystring: NamespaceNamesQuery,
        response: { 200: NamespaceNamesResponse },
      },
      config: {
        ...NAME_SEGMENT_ROUTE,
        ...routeRules("global", ["invalid_name", "invalid_request", "namespace_not_found"]),
      },
    },
    async (request) => {
      const { namespace } = request.params;
      const { limit, cursor } = request.query;
      const after = cursor === undefined ? undefined : namesCursor(cursor, namespace);
      const [exists, rows] = await Promise.all([
        namespaceExists(replica, namespace),
        namesOfNamespace(replica, namespace, after, limit + 1),
      ]);
      if (!exists) throw new ApiError("namespace_not_found", { namespace });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        namespace,
        names: page.map((row) => ({
          name: `${row.label}.${namespace}`,
          label: row.label,
          holder: row.holder,
          expiresAt: row.expiresAt === null ? null : isoOfSeconds(row.expiresAt),
          // By the clock that judges expiry on resolve (the later of wall and chain time): an expired name is
          // listed until it is reclaimed, as `issuedNames` counts it.
          expired: clock.isExpired(row.expiresAt),
          issuedLedger: row.issuedLedger,
          issuedAt: row.issuedAt?.toISOString() ?? null,
          subnames: row.subnames,
        })),
        nextCursor:
          rows.length > limit && last !== undefined ? encodeNamesCursor(last.label, namespace) : null,
      };
    },
  );

  app.get(
    "/v1/lookup",
    {
      schema: {
        summary: "Search names and namespaces by label: prefix matches, then substrings",
        querystring: LookupQuery,
        response: { 200: LookupResponse },
      },
      config: routeRules("global", ["invalid_request", "invalid_name"]),
    },
    async (request) => {
      const { q } = request.query;
      // Names that resolve: expiry judged by the clock resolve uses (the later of wall and chain time).
      const found = await searchLookup(replica, planLookup(q), BigInt(clock.nowSeconds()));
      return {
        q,
        namespaces: found.namespaces,
        names: found.names.map((n) => ({ name: `${n.label}.${n.namespace}`, ...n })),
      };
    },
  );

  const showcaseRoute = {
    schema: { summary: "The namespaces with the most issued names", response: { 200: ShowcaseResponse } },
    config: routeRules("global", ["invalid_request"]),
  };
  app.get("/v1/showcase", showcaseRoute, async () => {
    const rows = await showcaseNamespaces(replica, SHOWCASE_LIMIT);
    return { namespaces: rows };
  });
};
