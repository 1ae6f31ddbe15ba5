// Hosted webhooks, the owner's side (docs/webhooks.md "Managing endpoints"; docs/api.md "Wallet sessions and the
// owner console"): register, list, delete, rotate the secret, read the delivery log and retry a delivery. Same
// session and owner checks, in the same order, as every console route; the namespace is X-Service-Namespace's
// alone, and every endpoint and delivery is looked up within it, so another namespace's are never found.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { CHANGE_TYPES, type ChangeType } from "../../../changes/catalogue.ts";
import type { Config } from "../../../config/index.ts";
import { newEndpointId, newWebhookSecret, SECRET_OVERLAP_MS } from "../../../webhooks/signing.ts";
import { checkWebhookUrl, type Resolver } from "../../../webhooks/target-policy.ts";
import { noStore } from "../../cache.ts";
import { type ConsoleContext, sessionOf } from "../../common/console-context.ts";
import { ApiError } from "../../errors.ts";
import { intParam, positiveIntParam } from "../../query-params.ts";
import { BODY_ERRORS, CONSOLE_ERRORS, routeRules } from "../../route-rules.ts";
import {
  type AttemptRow,
  type DeliveryRow,
  deleteEndpoint,
  deliveriesOf,
  type EndpointRow,
  endpointOf,
  endpointsOf,
  insertEndpoint,
  requeueDelivery,
  rotateSecret,
} from "./queries.ts";

export interface WebhookRouteOptions extends ConsoleContext {
  readonly config: Config;
  /** How target host names are resolved at registration; default the system's resolver. */
  readonly resolve: Resolver;
}

const ChangeTypeField = z.enum(CHANGE_TYPES as [ChangeType, ...ChangeType[]]);

const CreateBody = z.strictObject({
  url: z.string({ error: "is required" }).min(1, "is required"),
  types: z
    .array(ChangeTypeField, { error: "must be a list of change types" })
    .min(1, "must name at least one change type")
    .refine((types) => new Set(types).size === types.length, "must not name a type twice"),
});

const Id = z.string().max(64);
const Iso = z.iso.datetime();

const Endpoint = z.object({
  id: z.string(),
  url: z.string(),
  types: z.array(z.string()),
  createdAt: Iso,
  enabled: z.boolean(),
  disabledAt: Iso.nullable(),
  disabledReason: z.string().nullable(),
  failingSince: Iso.nullable(),
  previousSecretExpiresAt: Iso.nullable(),
});

const Created = z.object({
  id: z.string(),
  url: z.string(),
  types: z.array(z.string()),
  secret: z.string(),
  createdAt: Iso,
});

const Attempt = z.object({
  attemptedAt: Iso,
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
  responseExcerpt: z.string().nullable(),
  nextAttemptAt: Iso.nullable(),
});

const Delivery = z.object({
  id: z.string(),
  position: z.number().int(),
  type: z.string(),
  state: z.enum(["pending", "delivered", "failed"]),
  reason: z.string().nullable(),
  createdAt: Iso,
  finishedAt: Iso.nullable(),
  nextAttemptAt: Iso.nullable(),
  attempts: z.array(Attempt),
});

// The house rules of query parameters (query-params.ts): each once, integers as plain digits.
const DeliveriesQuery = z.strictObject({
  limit: intParam(1, 100, 20),
  before: positiveIntParam(),
});

const iso = (at: Date | null) => at?.toISOString() ?? null;

function endpointView(row: EndpointRow, now: Date) {
  const until = row.previousSecretUntil;
  return {
    id: row.id,
    url: row.url,
    types: row.types,
    createdAt: row.createdAt.toISOString(),
    enabled: row.disabledAt === null,
    disabledAt: iso(row.disabledAt),
    disabledReason: row.disabledReason,
    failingSince: iso(row.failingSince),
    previousSecretExpiresAt: until !== null && until.getTime() > now.getTime() ? until.toISOString() : null,
  };
}

function deliveryView(delivery: DeliveryRow, attempts: readonly AttemptRow[]) {
  return {
    id: delivery.id,
    position: delivery.position,
    type: delivery.type,
    state: delivery.state as "pending" | "delivered" | "failed",
    reason: delivery.reason,
    createdAt: delivery.createdAt.toISOString(),
    finishedAt: iso(delivery.finishedAt),
    nextAttemptAt: iso(delivery.nextAttemptAt),
    attempts: attempts.map((a) => ({
      attemptedAt: a.attemptedAt.toISOString(),
      statusCode: a.statusCode,
      durationMs: a.durationMs,
      error: a.error,
      responseExcerpt: a.responseExcerpt,
      nextAttemptAt: iso(a.nextAttemptAt),
    })),
  };
}

export const webhookRoutes: FastifyPluginAsyncZod<WebhookRouteOptions> = async (
  app,
  { db, guard, now, config, resolve },
) => {
  const settings = config.webhooks;

  /** The session's namespace after the owner checks, and its endpoint `id` (404 webhook_not_found otherwise). */
  const ownedEndpoint = async (request: Parameters<typeof sessionOf>[0], id: string) => {
    const owner = await guard.requireNamespaceOwner(request, sessionOf(request), undefined);
    const endpoint = await endpointOf(db.db, owner.namespace, id);
    if (endpoint === undefined) throw new ApiError("webhook_not_found", { id });
    return endpoint;
  };

  app.post(
    "/console/webhooks",
    {
      schema: {
        summary: "Owner: register a webhook endpoint (its secret is shown once)",
        body: CreateBody,
        response: { 201: Created },
      },
      config: routeRules("global", [
        ...CONSOLE_ERRORS,
        ...BODY_ERRORS,
        "invalid_webhook_url",
        "webhook_limit_reached",
      ]),
    },
    async (request, reply) => {
      noStore(reply);
      const owner = await guard.requireNamespaceOwner(request, sessionOf(request), undefined);
      const checked = await checkWebhookUrl(request.body.url, settings, resolve);
      if (!checked.ok) throw new ApiError("invalid_webhook_url", { detail: checked.detail });
      const row = await insertEndpoint(
        db.db,
        {
          id: newEndpointId(),
          namespace: owner.namespace,
          url: checked.url,
          types: request.body.types,
          secret: newWebhookSecret(),
          createdAt: now(),
        },
        settings.maxEndpoints,
      );
      if (row === null) {
        throw new ApiError("webhook_limit_reached", {
          detail: `a namespace may have at most ${settings.maxEndpoints} webhook endpoints`,
          limit: settings.maxEndpoints,
        });
      }
      reply.code(201);
      return {
        id: row.id,
        url: row.url,
        types: row.types,
        secret: row.secret,
        createdAt: row.createdAt.toISOString(),
      };
    },
  );

  app.get(
    "/console/webhooks",
    {
      schema: {
        summary: "Owner: the namespace's webhook endpoints",
        response: { 200: z.object({ namespace: z.string(), webhooks: z.array(Endpoint) }) },
      },
      config: routeRules("global", CONSOLE_ERRORS),
    },
    async (request) => {
      const owner = await guard.requireNamespaceOwner(request, sessionOf(request), undefined);
      const at = now();
      const rows = await endpointsOf(db.db, owner.namespace);
      return { namespace: owner.namespace, webhooks: rows.map((row) => endpointView(row, at)) };
    },
  );

  app.delete(
    "/console/webhooks/:id",
    {
      schema: {
        summary: "Owner: delete a webhook endpoint and its delivery log",
        params: z.object({ id: Id }),
        response: { 200: z.object({ ok: z.literal(true), id: z.string() }) },
      },
      config: routeRules("global", [...CONSOLE_ERRORS, "webhook_not_found"]),
    },
    async (request) => {
      const owner = await guard.requireNamespaceOwner(request, sessionOf(request), undefined);
      const { id } = request.params;
      if (!(await deleteEndpoint(db.db, owner.namespace, id)))
        throw new ApiError("webhook_not_found", { id });
      return { ok: true as const, id };
    },
  );

  app.post(
    "/console/webhooks/:id/rotate-secret",
    {
      schema: {
        summary: "Owner: a new signing secret; the old one signs too for 24 hours",
        params: z.object({ id: Id }),
        response: { 200: z.object({ id: z.string(), secret: z.string(), previousSecretExpiresAt: Iso }) },
      },
      config: routeRules("global", [...CONSOLE_ERRORS, "webhook_not_found"]),
    },
    async (request) => {
      const endpoint = await ownedEndpoint(request, request.params.id);
      const secret = newWebhookSecret();
      const until = new Date(now().getTime() + SECRET_OVERLAP_MS);
      if (!(await rotateSecret(db.db, endpoint.namespace, endpoint.id, secret, until))) {
        throw new ApiError("webhook_not_found", { id: endpoint.id });
      }
      return { id: endpoint.id, secret, previousSecretExpiresAt: until.toISOString() };
    },
  );

  app.get(
    "/console/webhooks/:id/deliveries",
    {
      schema: {
        summary: "Owner: an endpoint's deliveries and their attempts, newest first",
        params: z.object({ id: Id }),
        querystring: DeliveriesQuery,
        response: {
          200: z.object({
            webhook: Endpoint,
            deliveries: z.array(Delivery),
            next: z.number().int().nullable(),
          }),
        },
      },
      config: routeRules("global", [...CONSOLE_ERRORS, "webhook_not_found"]),
    },
    async (request) => {
      const endpoint = await ownedEndpoint(request, request.params.id);
      const { limit, before } = request.query;
      const page = await deliveriesOf(db.db, endpoint.id, limit, before);
      const last = page.at(-1);
      return {
        webhook: endpointView(endpoint, now()),
        deliveries: page.map(({ delivery, attempts }) => deliveryView(delivery, attempts)),
        // The `before` of the next (older) page; null on the last one.
        next: page.length === limit && last !== undefined ? last.delivery.position : null,
      };
    },
  );

  app.post(
    "/console/webhooks/:id/deliveries/:deliveryId/retry",
    {
      schema: {
        summary: "Owner: queue a delivery again now (re-enables a disabled endpoint)",
        params: z.object({ id: Id, deliveryId: Id }),
        response: { 202: z.object({ delivery: Delivery.omit({ attempts: true }), webhook: Endpoint }) },
      },
      config: routeRules("global", [...CONSOLE_ERRORS, "webhook_not_found", "delivery_not_found"]),
    },
    async (request, reply) => {
      const endpoint = await ownedEndpoint(request, request.params.id);
      const at = now();
      const delivery = await requeueDelivery(db.db, endpoint, request.params.deliveryId, at);
      if (delivery === null) {
        throw new ApiError("delivery_not_found", { id: endpoint.id, deliveryId: request.params.deliveryId });
      }
      const fresh = (await endpointOf(db.db, endpoint.namespace, endpoint.id)) ?? endpoint;
      reply.code(202);
      const { attempts: _none, ...queued } = deliveryView(delivery, []);
      return { delivery: queued, webhook: endpointView(fresh, at) };
    },
  );
};
