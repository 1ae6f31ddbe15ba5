// Holder transactions (spec §4.6 rule 4, §4.7 rule 3): POST /records/prepare builds an unsigned network-address
// change with the current holder as source; POST /records/submit sends what the holder signed (any transaction
// prepared here or by /subnames/prepare) and answers 200, 202 pending with the original hash, or 409 failed.
// Preparing saves nothing. Not under /v1: no CORS (spec §1 convention 6).
import { canonicalChainAddress, isAccountId, parseName, ResolverFns } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ApiError } from "../../errors.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { replySubmitOutcome, SUBMIT_RESPONSES } from "../../submit-reply.ts";
import { namespaceRoute } from "../subnames/queries.ts";
import { liveControl } from "../subnames/state.ts";
import { readChainPolicy, requireNetwork, resolverOf } from "./chain-policy.ts";

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

/** Signed envelopes are a few kilobytes; the body limit bounds this again. */
const SubmitBody = z.strictObject({
  signedXdr: z
    .string()
    .min(1)
    .max(64 * 1024),
});

export const holderTxRoutes: FastifyPluginAsyncZod<Pick<RouteDeps, "db" | "chainClient" | "submit">> = async (
  app,
  { db, chainClient, submit },
) => {
  app.post(
    "/records/prepare",
    { schema: { body: PrepareBody, response: { 200: PrepareResponse } } },
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
      // Removal stays possible while the network is disabled (CONTRACTS.md set_chain_address).
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
    { schema: { body: SubmitBody, response: SUBMIT_RESPONSES } },
    async (request, reply) => {
      if (chainClient === undefined) throw new ApiError("chain_unavailable");
      const outcome = await chainClient.submit(request.body.signedXdr, submit);
      return replySubmitOutcome(reply, outcome);
    },
  );
};
