// Namespace policy changes, prepared for the owner's wallet and submitted once signed (docs/api.md "Wallet sessions and the owner console"
// rule 4): the subname policy on the namespace's registrar and the network allowlist on its resolver; and the
// console's one relay, POST /console/tx/submit, for these and the console's other prepared transactions
// (relay.ts). The service only prepares and relays; the owner's own signature authorises the call (docs/sessions.md).
import { isChainNetwork, RegistrarFns, ResolverFns, subnamePolicyFromHttp } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Config } from "../../../config/index.ts";
import { type ConsoleContext, chainOf, NamespaceField, sessionOf } from "../../common/console-context.ts";
import { ApiError } from "../../errors.ts";
import { CONSOLE_ERRORS, PREPARE_ERRORS, routeRules, SUBMIT_ERRORS } from "../../route-rules.ts";
import { replySubmitOutcome, SubmitPendingBody, SubmitSuccessBody } from "../../submit-reply.ts";
import { requireConsoleTransaction } from "./relay.ts";

const SubnamePolicyBody = z.strictObject({
  namespace: NamespaceField,
  policy: z.string({ error: "is required" }).transform((policy, ctx) => {
    const onChain = subnamePolicyFromHttp(policy);
    if (onChain === null) {
      ctx.addIssue({ code: "custom", message: "must be enabled, creation-disabled or suspended" });
      return z.NEVER;
    }
    return onChain;
  }),
});

const SubnamePolicyPrepared = z.object({
  ok: z.literal(true),
  xdr: z.string(),
  signer: z.string(),
  registrarId: z.string(),
  namespace: z.string(),
  network: z.string(),
});

/** Room for every known network and then some; the contract refuses unknown ones anyway. */
const MAX_NETWORKS = 16;

const ChainPolicyBody = z.strictObject({
  namespace: NamespaceField,
  networks: z.array(z.string().max(64)).max(MAX_NETWORKS),
});

const ChainPolicyPrepared = z.object({
  xdr: z.string(),
  signer: z.string(),
  namespace: z.string(),
  resolverId: z.string(),
  network: z.string(),
  ok: z.literal(true),
});

/** Prepared envelopes are a few kilobytes; the body limit of the app bounds this further. */
const SubmitBody = z.strictObject({ xdr: z.string({ error: "is required" }).min(1) });

export const consolePolicyRoutes: FastifyPluginAsyncZod<ConsoleContext & { config: Config }> = async (
  app,
  { db, guard, chainClient, now, config },
) => {
  const relay = { db, config, now, registryId: config.chain.contracts.registry.id };
  app.post(
    "/console/subname-policy/prepare",
    {
      schema: {
        summary: "Owner: prepare a change of the namespace's subname policy",
        body: SubnamePolicyBody,
        response: { 200: SubnamePolicyPrepared },
      },
      config: routeRules("prepare", [...CONSOLE_ERRORS, ...PREPARE_ERRORS, "subnames_unsupported"]),
    },
    async (request) => {
      const { namespace, policy } = request.body;
      const owner = await guard.requireNamespaceOwner(request, sessionOf(request), namespace);
      const chain = chainOf(chainClient);
      const prepared = await chain.prepare(
        owner.session.account,
        owner.record.registrar,
        RegistrarFns.set_subname_policy,
        { policy },
      );
      return {
        ok: true as const,
        xdr: prepared.xdr,
        signer: prepared.source,
        registrarId: prepared.contractId,
        namespace,
        network: prepared.networkPassphrase,
      };
    },
  );

  app.post(
    "/console/chain-policy/prepare",
    {
      schema: {
        summary: "Owner: prepare a change of the namespace's network-address policy",
        body: ChainPolicyBody,
        response: { 200: ChainPolicyPrepared },
      },
      config: routeRules("prepare", [
        ...CONSOLE_ERRORS,
        ...PREPARE_ERRORS,
        "no_resolver",
        "unsupported_network",
      ]),
    },
    async (request) => {
      const { namespace } = request.body;
      const networks = allowlist(request.body.networks);
      const owner = await guard.requireNamespaceOwner(request, sessionOf(request), namespace);
      const resolver = owner.record.resolver;
      if (resolver === null) throw new ApiError("no_resolver", { namespace });
      const chain = chainOf(chainClient);
      const prepared = await chain.prepare(owner.session.account, resolver, ResolverFns.set_chain_policy, {
        networks,
      });
      return {
        xdr: prepared.xdr,
        signer: prepared.source,
        namespace,
        resolverId: prepared.contractId,
        network: prepared.networkPassphrase,
        ok: true as const,
      };
    },
  );

  app.post(
    "/console/tx/submit",
    {
      // 409 has no schema here: it is both a failed transaction and the guard's namespace_changed.
      schema: {
        summary: "Owner: submit a signed console transaction and follow it",
        body: SubmitBody,
        response: { 200: SubmitSuccessBody, 202: SubmitPendingBody },
      },
      config: routeRules("submit", [...CONSOLE_ERRORS, ...SUBMIT_ERRORS]),
    },
    async (request, reply) => {
      const owner = await guard.requireNamespaceOwner(request, sessionOf(request), undefined);
      const chain = chainOf(chainClient);
      await requireConsoleTransaction(relay, request.body.xdr, chain.networkPassphrase, owner);
      const outcome = await chain.submit(request.body.xdr);
      return replySubmitOutcome(reply, outcome);
    },
  );
};

/** The requested allowlist: known networks only (400 unsupported_network), each once. */
function allowlist(networks: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const network of networks) {
    if (!isChainNetwork(network)) {
      throw new ApiError("unsupported_network", { network, detail: `networks: ${network} is not supported` });
    }
    if (seen.has(network)) {
      throw new ApiError("invalid_request", { detail: `networks: lists ${network} more than once` });
    }
    seen.add(network);
  }
  return [...seen];
}
