// Holder transactions (docs/api.md "Prepare and submit (not under /v1)"): POST /records/prepare builds an unsigned
// record change — the spec's network address, or (**Chosen**) one text record, the payment instruction, the built-in
// address, the display name or the primary name — with the account that must authorise it as source; POST
// /records/submit sends what the wallet signed — only the kinds of call and payment this service prepares
// (chain/submit-policy.ts, common/payment-relay.ts) — and answers 200, 202 pending with the original hash, or 409
// failed. Preparing saves nothing. Open to wallet web apps from any origin (api/plugins/cors.ts).
import {
  canonicalChainAddress,
  isAccountId,
  isStellarAddress,
  isSymbol,
  MAX_MEMO_BYTES,
  MAX_TEXT_VALUE_CHARS,
  MEMO_RULE,
  ResolverFns,
  STELLAR_ADDRESS_RULE,
  SYMBOL_MAX_LENGTH,
  SYMBOL_RULE,
} from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type ContractRole, requireRelayable, singleOperation } from "../../../chain/submit-policy.ts";
import { liveControl } from "../../common/live-control.ts";
import { namespaceRoute } from "../../common/namespace-route.ts";
import { judgeRelayedPayment } from "../../common/payment-relay.ts";
import { ApiError } from "../../errors.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { PREPARE_ERRORS, routeRules, SUBMIT_ERRORS } from "../../route-rules.ts";
import { replySubmitOutcome, SUBMIT_RESPONSES } from "../../submit-reply.ts";
import { parseFoldedName } from "../path-params.ts";
import { readChainPolicy, requireNetwork, resolverOf } from "./chain-policy.ts";
import { trackedRoleOf } from "./queries.ts";
import { prepareRecordAction, type RecordAction } from "./record-prepare.ts";

// The record rules (keys, value and memo limits, addresses) are @namereg/protocol's records.ts: the web app checks the
// same ones beside its fields before it asks.
const StellarAddress = z.string().max(64).refine(isStellarAddress, STELLAR_ADDRESS_RULE);

const ACTIONS = ["chainAddress", "text", "payment", "address", "displayName", "primary"] as const;

const PrepareBody = z
  .strictObject({
    name: z.string().max(200),
    // One action per request: exactly one network and one value (a string to set, null to remove).
    chainAddress: z
      .strictObject({ network: z.string().max(64), address: z.string().max(200).nullable() })
      .optional()
      .describe("set_chain_address: one network address; address null removes it"),
    text: z
      .strictObject({
        key: z.string().max(SYMBOL_MAX_LENGTH).refine(isSymbol, SYMBOL_RULE),
        value: z.string().min(1).max(MAX_TEXT_VALUE_CHARS).nullable(),
      })
      .optional()
      .describe(
        `set_text: one text record; value null removes it (at most ${MAX_TEXT_VALUE_CHARS} characters)`,
      ),
    payment: z
      .strictObject({
        address: StellarAddress,
        memo: z
          .string()
          .min(1)
          .refine((memo) => Buffer.byteLength(memo, "utf8") <= MAX_MEMO_BYTES, MEMO_RULE)
          .nullable(),
      })
      .optional()
      .describe("set_payment: the payment instruction payers get from lookup (address and text memo)"),
    address: StellarAddress.optional().describe(
      "set_address on the registrar: the name's built-in pay-to address (label.namespace only)",
    ),
    displayName: z
      .literal(true)
      .optional()
      .describe("set_display_name: this name becomes the display name of its pay-to address, which signs"),
    primary: z
      .literal(true)
      .optional()
      .describe("set_primary: this name becomes the primary name of its pay-to address, which signs"),
  })
  .superRefine((body, ctx) => {
    const given = ACTIONS.filter((key) => body[key] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: "custom",
        message: `must hold exactly one of ${ACTIONS.join(", ")}${given.length === 0 ? "" : ` (got ${given.join(", ")})`}`,
      });
    }
  });

type Body = z.infer<typeof PrepareBody>;

const ChainAddressPrepared = z.object({
  ok: z.literal(true),
  xdr: z.string(),
  holder: z.string(),
  signer: z.string(),
  namespace: z.string(),
  resolverId: z.string(),
  network: z.string(),
});

const RecordPrepared = z.object({
  ok: z.literal(true),
  xdr: z.string(),
  name: z.string(),
  action: z.enum(["text", "payment", "address", "displayName", "primary"]),
  holder: z.string().describe("The name's controller: its holder, or a subname's parent holder."),
  signer: z
    .string()
    .describe(
      "The transaction's source and only signer: the holder, or for displayName and primary the pay-to address.",
    ),
  namespace: z.string(),
  contractId: z
    .string()
    .describe("The contract called: the resolver, the registrar (address) or the primary contract."),
  function: z.string(),
  network: z.string(),
});

/** Its size is checked by the submit policy (413 past SUBMIT_XDR_MAX_CHARS); the body limit bounds it again. */
const SubmitBody = z.strictObject({ signedXdr: z.string().min(1) });

function recordAction(body: Body): RecordAction | null {
  if (body.text !== undefined) return { action: "text", ...body.text };
  if (body.payment !== undefined) return { action: "payment", ...body.payment };
  if (body.address !== undefined) return { action: "address", address: body.address };
  if (body.displayName !== undefined) return { action: "displayName" };
  if (body.primary !== undefined) return { action: "primary" };
  return null;
}

export const holderTxRoutes: FastifyPluginAsyncZod<
  Pick<RouteDeps, "db" | "chainClient" | "submit" | "config" | "now">
> = async (app, { db, chainClient, submit, config, now }) => {
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
        summary:
          "Holder: prepare one record change of a name (network address, text, payment, address, display or primary name)",
        body: PrepareBody,
        response: { 200: z.union([ChainAddressPrepared, RecordPrepared]) },
      },
      config: routeRules("prepare", [
        ...PREPARE_ERRORS,
        "invalid_name",
        "invalid_chain_address",
        "unsupported_network",
        "namespace_not_found",
        "name_not_found",
        "name_expired",
        "no_resolver",
        "chain_disabled",
        "multichain_unsupported",
        "contract_holder_requires_adapter",
        "no_payment_address",
      ]),
    },
    async (request) => {
      const { name, chainAddress } = request.body;
      const change = recordAction(request.body);
      if (change !== null) return prepareRecord(name, change);
      if (chainAddress === undefined)
        throw new Error("the body schema lets no request without an action through");
      const network = requireNetwork(chainAddress.network);
      // Checked before anything is read or built: a wallet must never be shown a transaction that will fail.
      const address =
        chainAddress.address === null ? null : canonicalChainAddress(network, chainAddress.address);
      if (chainAddress.address !== null && address === null) {
        throw new ApiError("invalid_chain_address", { network });
      }
      const parsed = nameToChange(name);
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

  async function prepareRecord(name: string, change: RecordAction) {
    const parsed = nameToChange(name);
    const ns = await namespaceRoute(db, parsed.namespace);
    // A record of the resolver needs one; the registrar's address and the primary name do not.
    if (change.action === "text" || change.action === "payment" || change.action === "displayName") {
      resolverOf(ns);
    }
    const control = await liveControl(chainClient, ns, parsed);
    if (chainClient === undefined) throw new ApiError("chain_unavailable");
    const { prepared, holder } = await prepareRecordAction(
      chainClient,
      config.chain.contracts,
      {
        parsed,
        ns,
        control,
      },
      change,
    );
    return {
      ok: true as const,
      xdr: prepared.xdr,
      name: control.name,
      action: change.action,
      holder,
      signer: prepared.source,
      namespace: parsed.namespace,
      contractId: prepared.contractId,
      function: prepared.fn,
      network: prepared.networkPassphrase,
    };
  }

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
      const operation = singleOperation(request.body.signedXdr, chainClient.networkPassphrase);
      if (operation.kind === "call") await requireRelayable(operation, roleOf);
      else await judgeRelayedPayment({ db, config, now }, operation);
      const outcome = await chainClient.submit(request.body.signedXdr, submit);
      return replySubmitOutcome(reply, outcome);
    },
  );
};

/** A name whose records can change: `label.namespace` or `child.label.namespace`; 400 invalid_name otherwise. */
function nameToChange(name: string) {
  const parsed = parseFoldedName(name);
  if (parsed === null || parsed.kind === "namespace") {
    throw new ApiError("invalid_name", {
      detail: "name: must be label.namespace or child.label.namespace (A-Z is lower-cased)",
    });
  }
  return parsed;
}
