// Resolution routes (docs/api.md "Resolution, records, reverse, names by holder, history"): resolve (the hot path, answered from an in-memory cache of the
// mirror), the full name record, live resolver records, reverse hint, names by holder and name history.
import { isStellarAddress } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { noStore } from "../../cache.ts";
import { ApiError } from "../../errors.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { routeRules } from "../../route-rules.ts";
import { batchCharge } from "./batch-cost.ts";
import {
  ADDRESS_RULE,
  encodeHistoryCursor,
  HistoryQuery,
  historyCursor,
  holderAddress,
  nameRef,
} from "./params.ts";
import { historyEvents, nameRecordParts, nameRow, namesHeldBy, recordsParts } from "./queries.ts";
import { readRecords } from "./records.ts";
import { resolveFill } from "./resolve-fill.ts";
import { resolveNames } from "./resolve-names.ts";
import { reverseNames } from "./reverse-names.ts";
import {
  AddressParams,
  ByHolderResponse,
  HistoryResponse,
  isoOfSeconds,
  NameParams,
  NameRecordResponse,
  ownershipOf,
  RecordsResponse,
  ResolveBatchBody,
  ResolveBatchResponse,
  ResolveParams,
  ResolveResponse,
  ReverseBatchBody,
  ReverseBatchResponse,
  ReverseResponse,
} from "./schemas.ts";

export const MAX_BY_HOLDER = 100;

export const resolutionRoutes: FastifyPluginAsyncZod<
  Pick<RouteDeps, "db" | "config" | "chainClient" | "resolution">
> = async (app, { db, config, chainClient, resolution }) => {
  const mirror = db.replica;
  const { cache, counter, clock } = resolution;

  const { fill, refresh } = resolveFill(db.db, cache);
  cache.refreshWith(refresh);
  const names = resolveNames({ cache, fill, clock, counter, mirror });
  const charge = batchCharge(app);

  app.get(
    "/v1/resolve/:namespace/:label",
    {
      schema: {
        summary: "Resolve a name to the account to pay",
        params: ResolveParams,
        response: { 200: ResolveResponse },
      },
      config: routeRules("global", ["invalid_name", "name_not_found", "name_expired"]),
    },
    async (request, reply) => {
      // The body was validated and serialised when cached. Fastify sends a string with a JSON content type as it
      // is, skipping the schema serializer; the type provider only knows the object form, hence the cast.
      const body = await names.one(request.params);
      return reply.type("application/json; charset=utf-8").send(body as never);
    },
  );

  app.post(
    "/v1/resolve",
    {
      schema: {
        summary: "Resolve up to 100 names or subnames in one request",
        body: ResolveBatchBody,
        response: { 200: ResolveBatchResponse },
      },
      config: routeRules("global", ["invalid_request"]),
    },
    async (request, reply) => {
      await charge(request, reply, request.body.names.length);
      const body = await names.many(request.body.names);
      return reply.type("application/json; charset=utf-8").send(body as never);
    },
  );

  app.post(
    "/v1/reverse",
    {
      schema: {
        summary: "The reverse hint of up to 100 addresses in one request",
        body: ReverseBatchBody,
        response: { 200: ReverseBatchResponse },
      },
      config: routeRules("global", ["invalid_request"]),
    },
    async (request, reply) => {
      const { addresses } = request.body;
      await charge(request, reply, addresses.length);
      const valid = addresses.filter(isStellarAddress);
      const found = valid.length === 0 ? new Map() : await reverseNames(mirror, valid, clock.nowSeconds());
      return {
        results: addresses.map((address) =>
          isStellarAddress(address)
            ? { address, name: found.get(address) ?? null }
            : { address, error: "bad_address" as const, detail: ADDRESS_RULE },
        ),
      };
    },
  );

  app.get(
    "/v1/names/by-holder/:address",
    {
      schema: {
        summary: "The names an account holds",
        params: AddressParams,
        response: { 200: ByHolderResponse },
      },
      config: routeRules("global", ["bad_address", "invalid_request"]),
    },
    async (request) => {
      const holder = holderAddress(request.params.address);
      const rows = await namesHeldBy(mirror, holder, clock.nowSeconds(), MAX_BY_HOLDER + 1);
      return {
        holder,
        names: rows.slice(0, MAX_BY_HOLDER).map((row) => ({
          name: `${row.label}.${row.namespace}`,
          namespace: row.namespace,
          holder,
          issuedAt: row.issuedAt?.toISOString() ?? null,
          issuedLedger: row.issuedLedger,
        })),
        truncated: rows.length > MAX_BY_HOLDER,
      };
    },
  );

  app.get(
    "/v1/names/:namespace/:label",
    {
      schema: {
        summary: "A name: holder, ownership, expiry, issue",
        params: NameParams,
        response: { 200: NameRecordResponse },
      },
      config: routeRules("global", [
        "invalid_name",
        "namespace_not_found",
        "name_not_issued",
        "name_expired",
      ]),
    },
    async (request) => {
      const ref = nameRef(request.params);
      const {
        namespace: ns,
        name: row,
        resolutions,
      } = await nameRecordParts(mirror, ref.namespace, ref.node);
      if (ns === undefined) throw new ApiError("namespace_not_found", { namespace: ref.namespace });
      // A reclaimed name is not issued (any more).
      if (row === undefined || !row.active) throw new ApiError("name_not_issued", { name: ref.name });
      // docs/api.md "Resolution, records, reverse, names by holder, history": a timed name past its expiry yields 404 name_expired on every name route; its history
      // (/v1/names/{namespace}/{label}/history) still answers.
      if (clock.isExpired(row.expiresAt)) throw new ApiError("name_expired", { name: ref.name });
      const stored = Number(resolutions ?? 0n);
      return {
        name: ref.name,
        namespace: ref.namespace,
        holder: row.holder,
        ownership: ownershipOf(row.expiresAt, ns.locked),
        storage: "live" as const,
        expiresAt: row.expiresAt === null ? null : isoOfSeconds(row.expiresAt),
        resolutions: stored + counter.unflushed(ref.node),
        issuedLedger: row.issuedLedger,
        issuedAt: row.issuedAt?.toISOString() ?? null,
        txHash: row.txHash,
        operator: ns.owner,
        operatorName: ns.displayName ?? ref.namespace,
      };
    },
  );

  app.get(
    "/v1/names/:namespace/:label/history",
    {
      schema: {
        summary: "A name's lifecycle: issued, transferred, reclaimed; paged",
        params: NameParams,
        querystring: HistoryQuery,
        response: { 200: HistoryResponse },
      },
      config: routeRules("global", ["invalid_name", "invalid_request", "name_not_found"]),
    },
    async (request) => {
      const ref = nameRef(request.params);
      const { limit, cursor } = request.query;
      const before = cursor === undefined ? undefined : historyCursor(cursor, ref.node);
      const row = await nameRow(mirror, ref.node);
      if (row === undefined) throw new ApiError("name_not_found", { name: ref.name });
      const rows = await historyEvents(mirror, ref.node, before, limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        name: ref.name,
        issuedAt: row.issuedAt?.toISOString() ?? null,
        issuedLedger: row.issuedLedger,
        events: page.map((e) => ({
          action: e.action as "issued" | "transferred" | "reclaimed",
          ledger: e.ledger,
          txHash: e.txHash,
          at: e.at?.toISOString() ?? null,
          ingestedAt: e.ingestedAt.toISOString(),
        })),
        nextCursor:
          rows.length > limit && last !== undefined ? encodeHistoryCursor(last.eventId, ref.node) : null,
      };
    },
  );

  app.get(
    "/v1/records/:namespace/:label",
    {
      schema: {
        summary: "A name's address and text records",
        params: NameParams,
        response: { 200: RecordsResponse },
      },
      // A failed contract read is 502 node_lookup_failed here (records.ts), never 503 chain_unavailable.
      config: routeRules("chain-read", [
        "invalid_name",
        "namespace_not_found",
        "name_not_found",
        "name_expired",
        "no_resolver",
        "node_lookup_failed",
      ]),
    },
    async (request, reply) => {
      noStore(reply);
      const ref = nameRef(request.params);
      const { namespace: ns, name: row, textKeys } = await recordsParts(mirror, ref.namespace, ref.node);
      if (ns === undefined) throw new ApiError("namespace_not_found", { namespace: ref.namespace });
      if (row === undefined || !row.active) throw new ApiError("name_not_found", { name: ref.name });
      if (clock.isExpired(row.expiresAt)) throw new ApiError("name_expired", { name: ref.name });
      if (ns.resolver === null) throw new ApiError("no_resolver", { namespace: ref.namespace });
      return readRecords(chainClient, {
        name: ref.name,
        label: ref.label,
        node: ref.node,
        resolver: ns.resolver,
        registrar: ns.registrar,
        textKeys: textKeys ?? [],
        primaryId: config.chain.contracts.primary.id,
        lookupId: config.chain.contracts.lookup.id,
      });
    },
  );

  app.get(
    "/v1/reverse/:address",
    {
      schema: {
        summary: "An account's primary name",
        params: AddressParams,
        response: { 200: ReverseResponse },
      },
      config: routeRules("global", ["bad_address", "no_name", "chain_unavailable"]),
    },
    async (request) => {
      const address = holderAddress(request.params.address);
      const name = (await reverseNames(mirror, [address], clock.nowSeconds())).get(address) ?? null;
      if (name === null) throw new ApiError("no_name", { address });
      return { name };
    },
  );
};
