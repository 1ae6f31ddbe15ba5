// GET /v1/directory/reverse/{address} and GET /v1/directory/namespaces (docs/api.md "Directory"): the cross-tenant
// directory, the one read scoped by billing (api/billing-scope.ts). Entries are hints from the mirror, not proof.
import { isAccountId } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { billingScope } from "../../billing-scope.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { routeRules } from "../../route-rules.ts";
import { directoryRoster, heldInDirectory } from "./queries.ts";

export const DIRECTORY_REVERSE_LIMIT = 20;
export const DIRECTORY_ROSTER_LIMIT = 200;

const ReverseResponse = z.object({
  address: z.string(),
  filtered: z.boolean(),
  entries: z
    .array(z.object({ name: z.string(), namespace: z.string(), namespaceDisplay: z.string() }))
    .max(DIRECTORY_REVERSE_LIMIT),
});

const RosterResponse = z.object({
  filtered: z.boolean(),
  namespaces: z
    .array(z.object({ label: z.string(), displayName: z.string().nullable(), logo: z.string().nullable() }))
    .max(DIRECTORY_ROSTER_LIMIT),
});

export const directoryRoutes: FastifyPluginAsyncZod<
  Pick<RouteDeps, "db" | "config" | "now" | "resolution">
> = async (app, { db, config, now, resolution }) => {
  const { replica } = db;

  app.get(
    "/v1/directory/reverse/:address",
    {
      schema: {
        summary: "An account's names in the directory",
        params: z.strictObject({
          address: z.string().refine(isAccountId, "must be a G… account key"),
        }),
        response: { 200: ReverseResponse },
      },
      config: {
        // The spec's code for a bad address; an unknown query parameter stays invalid_request as on every route.
        validationCode: (field: string) => (field === "address" ? "invalid_account" : undefined),
        ...routeRules("global", ["invalid_account", "invalid_request"]),
      },
    },
    async (request) => {
      const { address } = request.params;
      const at = now();
      const scope = billingScope(replica, config.billing, at);
      // Held now: expiry judged as on resolve (the later of wall and chain time); billing by the wall clock.
      const nowSeconds = BigInt(resolution.clock.nowSeconds());
      const rows = await heldInDirectory(replica, scope, address, nowSeconds, DIRECTORY_REVERSE_LIMIT);
      return {
        address,
        filtered: scope.filtered,
        entries: rows.map((row) => ({
          name: `${row.label}.${row.namespace}`,
          namespace: row.namespace,
          namespaceDisplay: row.displayName ?? row.namespace,
        })),
      };
    },
  );

  const rosterRoute = {
    schema: {
      summary: "The directory's namespaces, with display names and logos",
      response: { 200: RosterResponse },
    },
    config: routeRules("global", ["invalid_request"]),
  };
  app.get("/v1/directory/namespaces", rosterRoute, async () => {
    const scope = billingScope(replica, config.billing, now());
    const rows = await directoryRoster(replica, scope, DIRECTORY_ROSTER_LIMIT);
    return { filtered: scope.filtered, namespaces: rows };
  });
};
