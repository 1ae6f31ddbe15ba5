// Network-specific addresses (docs/api.md "Subnames, network addresses and holder transactions"): the namespace's network allowlist and one name's address on one
// network, read live from the resolver with Cache-Control: no-store. A failed read is an error (503
// chain_unavailable), never a substitute from another network, the base chain or profile text;
// `address: null` only ever means "no current record on this enabled network".
import { ResolverFns } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { liveRead } from "../../../chain/live-reads.ts";
import { NO_STORE } from "../../cache.ts";
import { liveControl, type NameOrSubname } from "../../common/live-control.ts";
import { namespaceRoute } from "../../common/namespace-route.ts";
import { ApiError } from "../../errors.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { routeRules } from "../../route-rules.ts";
import { LabelSegment, NAME_SEGMENT_ROUTE, NameSegment } from "../path-params.ts";
import { readChainPolicy, requireNetwork, resolverOf } from "./chain-policy.ts";

const PolicyResponse = z.object({
  version: z.literal(1),
  namespace: z.string(),
  networks: z.array(z.string()),
});
const AddressResponse = z.object({ name: z.string(), network: z.string(), address: z.string().nullable() });

export const chainAddressRoutes: FastifyPluginAsyncZod<Pick<RouteDeps, "db" | "chainClient">> = async (
  app,
  { db, chainClient },
) => {
  app.get(
    "/v1/chain-policy/:namespace",
    {
      ...NO_STORE,
      schema: {
        summary: "Which networks a namespace accepts addresses for",
        params: z.object({ namespace: LabelSegment }),
        response: { 200: PolicyResponse },
      },
      config: {
        ...NAME_SEGMENT_ROUTE,
        ...routeRules("chain-read", [
          "invalid_name",
          "namespace_not_found",
          "no_resolver",
          "multichain_unsupported",
          "chain_unavailable",
        ]),
      },
    },
    async (request) => {
      const { namespace } = request.params;
      const resolver = resolverOf(await namespaceRoute(db, namespace));
      return { version: 1 as const, namespace, networks: await readChainPolicy(chainClient, resolver) };
    },
  );

  // `:name` is `label` or `child.label` (docs/api.md "Subnames, network addresses and holder transactions"): one path segment either way.
  app.get(
    "/v1/chain-address/:namespace/:name/:network",
    {
      ...NO_STORE,
      schema: {
        summary: "A name's address on another network",
        params: z.object({ namespace: LabelSegment, name: NameSegment, network: z.string().max(64) }),
        response: { 200: AddressResponse },
      },
      config: {
        ...NAME_SEGMENT_ROUTE,
        ...routeRules("chain-read", [
          "invalid_name",
          "unsupported_network",
          "namespace_not_found",
          "name_not_found",
          "name_expired",
          "no_resolver",
          "chain_disabled",
          "multichain_unsupported",
          "chain_unavailable",
        ]),
      },
    },
    async (request) => {
      const { namespace } = request.params;
      const network = requireNetwork(request.params.network);
      const parsed = nameOfSegment(request.params.name, namespace);
      const ns = await namespaceRoute(db, namespace);
      const resolver = resolverOf(ns);

      // Both reads start together; the namespace-level answer (interface, allowlist) comes before the name's.
      const control = liveControl(chainClient, ns, parsed);
      control.catch(() => {});
      const networks = await readChainPolicy(chainClient, resolver);
      if (!networks.includes(network)) throw new ApiError("chain_disabled", { network });
      const { name, node } = await control;
      const address = await liveRead(
        chainClient,
        resolver,
        ResolverFns.chain_address,
        { node, network },
        { failure: "chain_unavailable" },
      );
      return { name, network, address };
    },
  );
};

/** The segment, already lower-cased and checked by NameSegment: `label` or `child.label`. */
function nameOfSegment(segment: string, namespace: string): NameOrSubname {
  const [a = "", b] = segment.split(".");
  return b === undefined
    ? { kind: "name", label: a, namespace }
    : { kind: "subname", child: a, label: b, namespace };
}
