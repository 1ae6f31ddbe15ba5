// Subnames (docs/api.md "Subnames, network addresses and holder transactions"): the namespace policy, one child and the child list, read live from
// the registrar with Cache-Control: no-store, and POST /subnames/prepare, which builds an unsigned create or remove
// transaction with the parent holder as source. Submission is POST /records/submit (holder-tx.ts).
import { isAccountId, isStellarAddress, RegistrarFns, subnamePolicyToHttp } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  chainTime,
  inOrder,
  readChild,
  readChildren,
  readName,
  readPolicy,
} from "../../../chain/registrar-reads.ts";
import { NO_STORE } from "../../cache.ts";
import { namespaceRoute } from "../../common/namespace-route.ts";
import { ApiError } from "../../errors.ts";
import { intParam } from "../../query-params.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { type ErrorCodes, PREPARE_ERRORS, routeRules } from "../../route-rules.ts";
import { NAME_SEGMENT_ROUTE, parseFoldedName } from "../path-params.ts";
import { ChildRecordSchema, Generation, LabelParam, ParentContextSchema, PolicyHttp } from "./schemas.ts";
import { childRecord, parentContext, parentOrNotFound } from "./state.ts";

export const SUBNAME_LIST_MAX = 16;

const PolicyResponse = z.object({
  namespace: z.string(),
  version: z.literal(1),
  policy: PolicyHttp,
  registrarId: z.string(),
  owner: z.string(),
});

const ChildResponse = z.object({
  name: z.string(),
  parent: z.string(),
  parentContext: ParentContextSchema,
  policy: PolicyHttp,
  registrarId: z.string(),
  record: ChildRecordSchema.nullable(),
});

const ListResponse = z.object({
  parent: z.string(),
  parentContext: ParentContextSchema,
  policy: PolicyHttp,
  registrarId: z.string(),
  subnames: z.array(ChildRecordSchema.extend({ name: z.string() })),
  offset: z.number().int(),
  nextOffset: z.number().int().nullable(),
  source: z.literal("chain"),
});

const ListQuery = z.strictObject({
  // The registrar takes a u32 offset.
  offset: intParam(0, 0xffff_ffff, 0),
  limit: intParam(1, SUBNAME_LIST_MAX, SUBNAME_LIST_MAX),
});

const PrepareBody = z.strictObject({
  name: z.string().max(200),
  action: z.enum(["create", "remove"]),
  parentGeneration: Generation,
  generation: Generation.nullable(),
  address: z.string().max(100).optional(),
});

const PrepareResponse = z.object({
  ok: z.literal(true),
  xdr: z.string(),
  name: z.string(),
  holder: z.string(),
  signer: z.string(),
  registrarId: z.string(),
  namespace: z.string(),
  network: z.string(),
});

/**
 * What every subname read can answer besides not-found: read live from the registrar, it fails with 503
 * chain_unavailable when the RPC does, and 409 subnames_unsupported for a registrar without subnames
 * (chain/registrar-reads.ts).
 */
const LIVE_READ_ERRORS: ErrorCodes = ["invalid_name", "subnames_unsupported", "chain_unavailable"];

export const subnameRoutes: FastifyPluginAsyncZod<Pick<RouteDeps, "db" | "chainClient">> = async (
  app,
  { db, chainClient },
) => {
  app.get(
    "/v1/subname-policy/:namespace",
    {
      ...NO_STORE,
      schema: {
        summary: "A namespace's subname policy",
        params: z.object({ namespace: LabelParam }),
        response: { 200: PolicyResponse },
      },
      config: {
        ...NAME_SEGMENT_ROUTE,
        ...routeRules("chain-read", ["namespace_not_found", ...LIVE_READ_ERRORS]),
      },
    },
    async (request) => {
      const { namespace } = request.params;
      const ns = await namespaceRoute(db, namespace);
      const { policy, owner } = await readPolicy(chainClient, ns.registrar);
      return {
        namespace,
        version: 1 as const,
        policy: subnamePolicyToHttp(policy) as z.infer<typeof PolicyHttp>,
        registrarId: ns.registrar,
        owner,
      };
    },
  );

  app.get(
    "/v1/subnames/:namespace/:label/:child",
    {
      ...NO_STORE,
      schema: {
        summary: "One subname: its record and its parent",
        params: z.object({ namespace: LabelParam, label: LabelParam, child: LabelParam }),
        response: { 200: ChildResponse },
      },
      config: {
        ...NAME_SEGMENT_ROUTE,
        ...routeRules("chain-read", [
          "name_not_found",
          "name_expired",
          "namespace_not_found",
          ...LIVE_READ_ERRORS,
        ]),
      },
    },
    async (request) => {
      const { namespace, label, child } = request.params;
      const ns = await namespaceRoute(db, namespace);
      const parentName = `${label}.${namespace}`;
      const [name, { policy }, stored, now] = await inOrder([
        readName(chainClient, ns.registrar, label),
        readPolicy(chainClient, ns.registrar),
        readChild(chainClient, ns.registrar, label, child),
        chainTime(chainClient),
      ] as const);
      const parent = parentOrNotFound(name, parentName);
      return {
        name: `${child}.${parentName}`,
        parent: parentName,
        parentContext: parentContext(parentName, parent, now),
        policy: subnamePolicyToHttp(policy) as z.infer<typeof PolicyHttp>,
        registrarId: ns.registrar,
        record: stored === null ? null : childRecord(stored, parent, policy, now),
      };
    },
  );

  app.get(
    "/v1/subnames/:namespace/:label",
    {
      ...NO_STORE,
      schema: {
        summary: "The subnames of a name, paged",
        params: z.object({ namespace: LabelParam, label: LabelParam }),
        querystring: ListQuery,
        response: { 200: ListResponse },
      },
      config: {
        ...NAME_SEGMENT_ROUTE,
        ...routeRules("chain-read", [
          "name_not_found",
          "name_expired",
          "namespace_not_found",
          ...LIVE_READ_ERRORS,
        ]),
      },
    },
    async (request) => {
      const { namespace, label } = request.params;
      const { offset, limit } = request.query;
      const ns = await namespaceRoute(db, namespace);
      const parentName = `${label}.${namespace}`;
      const [name, { policy }, children, now] = await inOrder([
        readName(chainClient, ns.registrar, label),
        readPolicy(chainClient, ns.registrar),
        readChildren(chainClient, ns.registrar, label, offset, limit),
        chainTime(chainClient),
      ] as const);
      const parent = parentOrNotFound(name, parentName);
      return {
        parent: parentName,
        parentContext: parentContext(parentName, parent, now),
        policy: subnamePolicyToHttp(policy) as z.infer<typeof PolicyHttp>,
        registrarId: ns.registrar,
        subnames: children.map(([child, stored]) => ({
          name: `${child}.${parentName}`,
          ...childRecord(stored, parent, policy, now),
        })),
        offset,
        // A short page is the last; a full one may be followed by an empty read (docs/api.md "Subnames, network addresses and holder transactions").
        nextOffset: children.length < limit ? null : offset + children.length,
        source: "chain" as const,
      };
    },
  );

  app.post(
    "/subnames/prepare",
    {
      schema: {
        summary: "Holder: prepare creating or removing a subname",
        body: PrepareBody,
        response: { 200: PrepareResponse },
      },
      config: routeRules("prepare", [
        ...PREPARE_ERRORS,
        "invalid_name",
        "name_not_found",
        "name_expired",
        "namespace_not_found",
        "subname_generation_mismatch",
        "subnames_unsupported",
        "subname_creation_disabled",
        "subnames_suspended",
        "name_taken",
        "parent_inactive",
        "contract_holder_requires_adapter",
      ]),
    },
    async (request) => {
      const body = request.body;
      const parsed = parseFoldedName(body.name);
      if (parsed?.kind !== "subname") {
        throw new ApiError("invalid_name", {
          detail: "name: must be a full child name (child.label.namespace; A-Z is lower-cased)",
        });
      }
      const address = destinationOf(body.action, body.address);
      if (body.action === "remove" && body.generation === null) {
        throw new ApiError("invalid_request", {
          detail: "generation: removal names the current child generation",
        });
      }
      const { child, label, namespace } = parsed;
      const ns = await namespaceRoute(db, namespace);
      const parentName = `${label}.${namespace}`;
      const [name, stored] = await inOrder([
        readName(chainClient, ns.registrar, label),
        readChild(chainClient, ns.registrar, label, child),
      ] as const);
      const parent = parentOrNotFound(name, parentName);
      if (!isAccountId(parent.holder)) {
        throw new ApiError("contract_holder_requires_adapter", { name: parentName, holder: parent.holder });
      }

      // The generations the holder reviewed must still be the chain's (docs/contracts.md "Registrar"), checked before building so
      // the answer names the current values to re-read; simulation checks them again against the same state.
      const parentGeneration = BigInt(body.parentGeneration);
      const generation = body.generation === null ? null : BigInt(body.generation);
      const current = stored?.generation ?? null;
      const childMatches =
        body.action === "create" ? generation === current : stored?.exists === true && generation === current;
      if (parentGeneration !== parent.generation || !childMatches) {
        throw new ApiError("subname_generation_mismatch", {
          name: body.name,
          parentGeneration: parent.generation.toString(),
          generation: current === null ? null : current.toString(),
          exists: stored?.exists ?? false,
        });
      }

      if (chainClient === undefined) throw new ApiError("chain_unavailable");
      const prepared =
        body.action === "create"
          ? await chainClient.prepare(parent.holder, ns.registrar, RegistrarFns.create_subname, {
              label,
              child,
              parentGeneration,
              generation,
              address: address ?? "",
            })
          : await chainClient.prepare(parent.holder, ns.registrar, RegistrarFns.remove_subname, {
              label,
              child,
              parentGeneration,
              generation: generation ?? 0n,
            });
      return {
        ok: true as const,
        xdr: prepared.xdr,
        name: body.name,
        holder: parent.holder,
        signer: prepared.source,
        registrarId: ns.registrar,
        namespace,
        network: prepared.networkPassphrase,
      };
    },
  );
};

/** The receiving destination: a G or C address for create (docs/api.md "Subnames, network addresses and holder transactions"), absent for remove. */
function destinationOf(action: "create" | "remove", address: string | undefined): string | null {
  if (action === "remove") {
    if (address !== undefined)
      throw new ApiError("invalid_request", { detail: "address: must be absent for remove" });
    return null;
  }
  if (address === undefined)
    throw new ApiError("invalid_request", { detail: "address: is required for create" });
  if (!isStellarAddress(address)) {
    throw new ApiError("invalid_request", { detail: "address: must be a G account or C contract address" });
  }
  return address;
}
