// What the network-address routes and the holder transactions share: a namespace's resolver, its live network
// allowlist and the check that a network is one the spec knows.
import { type ChainNetwork, isChainNetwork, ResolverFns } from "@namereg/protocol";
import type { ChainClient } from "../../../chain/chain-client.ts";
import { liveRead } from "../../../chain/live-reads.ts";
import type { NamespaceRoute } from "../../common/namespace-route.ts";
import { ApiError } from "../../errors.ts";

/** The resolver of a namespace that enabled records; 409 no_resolver otherwise (docs/api.md "Subnames, network addresses and holder transactions"). */
export function resolverOf(ns: NamespaceRoute): string {
  if (ns.resolver === null) throw new ApiError("no_resolver", { namespace: ns.label });
  return ns.resolver;
}

/** The live allowlist; a resolver without the network-address interface answers #9 (docs/contracts.md "Errors"). */
export function readChainPolicy(chainClient: ChainClient | undefined, resolver: string): Promise<string[]> {
  return liveRead(
    chainClient,
    resolver,
    ResolverFns.chain_policy,
    {},
    {
      failure: "chain_unavailable",
      contractError: (code) => (code === 9 ? new ApiError("multichain_unsupported") : undefined),
    },
  );
}

export function requireNetwork(network: string): ChainNetwork {
  if (!isChainNetwork(network)) throw new ApiError("unsupported_network", { network });
  return network;
}
