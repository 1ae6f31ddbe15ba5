// Holder transactions (docs/api.md "Prepare and submit (not under /v1)"): POST /records/prepare builds an unsigned network-address
// change with the current holder as source; POST /records/submit sends what the wallet signed — only the kinds
// of call this service prepares (chain/submit-policy.ts) — and answers 200, 202 pending with the original hash,
// or 409 failed. Preparing saves nothing. Open to wallet web apps from any origin (api/plugins/cors.ts).
import { canonicalChainAddress, isAccountId, parseName, ResolverFns } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type ContractRole, requireRelayable, singleContractCall } from "../../../chain/submit-policy.ts";
import { liveControl } from "../../common/live-control.ts";
import { namespaceRoute } from "../../common/namespace-route.ts";
import { ApiError } from "../../errors.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { PREPARE_ERRORS, routeRules, SUBMIT_ERRORS } from "../../route-rules.ts";
import { replySubmitOutcome, SUBMIT_RESPONSES } from "../../submit-reply.ts";
import { readChainPolicy, requireNetwork, resolverOf } from "./chain-policy.ts";
import { trackedRoleOf } from "./queries.ts";

const PrepareBody = z.strictObject({
  name: z.string().max(200),
  // One action per request: exactly one network and one value (a string to set, null to remove).
  chainAddress: z.strictObject({ network: z.string().max(64), address: z.string().max(200).nullable() }),
});

const PrepareResponse = z.object({
  ok: z.literal(true),
  xdr: z.string(),
  holder: z.string(),
  signer: z.string(),
  namespace: z.string(),
  resolverId: z.string(),
  network: z.string(),
});

/** Its size is checked by the submit policy (413 past SUBMIT_XDR_MAX_CHARS); the body limit bounds it again. */
const SubmitBody = z.strictObject({ signedXdr: z.string().min(1) });

export const holderTxRoutes: FastifyPluginAsyncZod<
  Pick<RouteDeps, "db" | "chainClient" | "submit" | "config">
> = async (app, { db, chainClient, submit, config }) => {
  // The configured core contracts are known without the mirror; registrars and resolvers come from it.
  const core = new Map<string, ContractRole>();
  for (const [role, contract] of Object.entries(config.chain.contracts)) {
    if (contract.id !== null) core.set(contract.id, role as ContractRole);
  }
  const roleOf = async (contractId: string): Promise<ContractRole | null> => {
    const configured = core.get(contractId);
    if (configured !== undefined) return configured;
    return ((await trackedRoleOf(db.db, contractId)) as ContractRole | undefined) ?? null;
  };

  app.post(
    "/records/prepare",
    {
      schema: {
        summary: "Holder: prepare setting or removing a name's address on another network",
        body: PrepareBody,
        response: { 200: PrepareResponse },
      },
      config: routeRules("prepare", [
        ...PREPARE_ERRORS,
        "invalid_name",
        "invalid_chain_address",
        "unsupported_network",
        "name_not_found",
        "name_expired",
        "no_resolver",
        "chain_disabled",
        "multichain_unsupported",
        "contract_holder_requires_adapter",
      ]),
    },
    async (request) => {
      const { name, chainAddress } = request.body;
      const network = requireNetwork(chainAddress.network);
      // Checked before anything is read or built: a wallet must never be shown a transaction that will fail.
      const address =
        chainAddress.address === null ? null : canonicalChainAddress(network, chainAddress.address);
      if (chainAddress.address !== null && address === null) {
        throw new ApiError("invalid_chain_address", { network });
      }
      const parsed = parseName(name);
      if (parsed === null || parsed.kind === "namespace") {
        throw new ApiError("invalid_name", {
          detail: "name: must be label.namespace or child.label.namespace",
        });
      }
      const ns = await namespaceRoute(db, parsed.namespace);
      const resolver = resolverOf(ns);
      const control = liveControl(chainClient, ns, parsed);
      control.catch(() => {});
      // Removal stays possible while the network is disabled (docs/contracts.md "Resolver": set_chain_address).
      if (address !== null) {
        const networks = await readChainPolicy(chainClient, resolver);
        if (!networks.includes(network)) throw new ApiError("chain_disabled", { network });
      }
      const { holder, node } = await control;
      if (!isAccountId(holder)) throw new ApiError("contract_holder_requires_adapter", { name, holder });
      if (chainClient === undefined) throw new ApiError("chain_unavailable");
      const prepared = await chainClient.prepare(holder, resolver, ResolverFns.set_chain_address, {
        node,
        network,
        address,
      });
      return {
        ok: true as const,
        xdr: prepared.xdr,
        holder,
        signer: prepared.source,
        namespace: parsed.namespace,
        resolverId: resolver,
        network: prepared.networkPassphrase,
      };
    },
  );

  app.post(
    "/records/submit",
    {
      schema: {
        summary: "Submit a signed transaction this service prepared, and follow it",
        body: SubmitBody,
        response: SUBMIT_RESPONSES,
      },
      config: routeRules("submit", SUBMIT_ERRORS),
    },
    async (request, reply) => {
      if (chainClient === undefined) throw new ApiError("chain_unavailable");
      const call = singleContractCall(request.body.signedXdr, chainClient.networkPassphrase);
      await requireRelayable(call, roleOf);
      const outcome = await chainClient.submit(request.body.signedXdr, submit);
      return replySubmitOutcome(reply, outcome);
    },
  );
};
