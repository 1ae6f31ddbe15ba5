// GET /v1/stream (docs/api.md "GET /v1/stream"): the change events of docs/webhooks.md as server-sent events,
// public like every /v1 read. Each event's SSE id is its outbox position, so a client that reconnects with
// Last-Event-ID (or `?lastEventId=`, for EventSource polyfills that cannot send headers) gets every change after
// it, none twice; a position past retention or unknown to this outbox is answered with a `reset` event.
import { normalizeIP } from "@fastify/rate-limit";
import { normaliseLabel } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { CHANGE_TYPES, type ChangeType, isChangeType } from "../../../changes/catalogue.ts";
import type { ChangeFilter } from "../../../db/outbox.ts";
import { ApiError } from "../../errors.ts";
import { once } from "../../query-params.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { routeRules } from "../../route-rules.ts";
import { LabelSegment, NAME_SEGMENT_ROUTE } from "../path-params.ts";
import { ChangeHub, openingFrame, type StreamSink } from "./hub.ts";

const POSITION = /^\d{1,15}$/;
const POSITION_RULE = "must be an event id of this stream (a decimal integer)";

const FULL_NAME_RULE = "must be a full name, label.namespace or child.label.namespace (A-Z is lower-cased)";
const FullName = z
  .string()
  .transform((value, ctx) => {
    const parts = value.split(".").map(normaliseLabel);
    if (parts.length < 2 || parts.length > 3 || parts.some((p) => p === null)) {
      ctx.issues.push({ code: "custom", message: FULL_NAME_RULE, input: value });
      return z.NEVER;
    }
    return parts.join(".");
  })
  .describe(`Only changes of this name or subname; ${FULL_NAME_RULE}.`);

const Types = z
  .string()
  .transform((value, ctx) => {
    const list = value.split(",").map((t) => t.trim());
    const unknown = list.filter((t) => !isChangeType(t));
    if (unknown.length > 0 || list.length === 0) {
      ctx.issues.push({
        code: "custom",
        message: `unknown change type ${unknown.map((t) => JSON.stringify(t)).join(", ")}; known: ${CHANGE_TYPES.join(", ")}`,
        input: value,
      });
      return z.NEVER;
    }
    return [...new Set(list)] as ChangeType[];
  })
  .describe(`Only these change types, comma-separated: ${CHANGE_TYPES.join(", ")}.`);

// Each parameter once (query-params.ts): a repeated one is `<name>: must be given once`, as on /v1/events.
const StreamQuery = z.strictObject({
  namespace: once().pipe(LabelSegment).optional().describe("Only changes of this namespace."),
  name: once().pipe(FullName).optional(),
  types: once().pipe(Types).optional(),
  lastEventId: once()
    .regex(POSITION, POSITION_RULE)
    .optional()
    .describe("Resume after this event id, as `Last-Event-ID` does; the header wins when both are sent."),
});

const StreamHeaders = z.object({
  "last-event-id": z
    .string()
    .regex(POSITION, POSITION_RULE)
    .optional()
    .describe("Resume after this event id: every change after it is sent, none twice."),
});

/** The headers of every stream: no caching, no proxy buffering, no compression, kept open. */
export const STREAM_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  // no-transform: a proxy must not compress (or otherwise hold back) what it passes on.
  "cache-control": "no-store, no-transform",
  "x-accel-buffering": "no",
  connection: "keep-alive",
};

export const streamRoutes: FastifyPluginAsyncZod<Pick<RouteDeps, "config" | "db">> = async (
  app,
  { config, db },
) => {
  const hub = new ChangeHub(db, app.log, { heartbeatMs: config.stream.heartbeatMs });
  // Before the server waits for open connections: a stream would hold the close up forever.
  app.addHook("preClose", async () => {
    await hub.close();
  });

  app.get(
    "/v1/stream",
    {
      exposeHeadRoute: false,
      schema: {
        summary: "Change events as they are indexed (server-sent events), resumable with Last-Event-ID",
        querystring: StreamQuery,
        headers: StreamHeaders,
        response: {
          200: {
            description:
              "Server-sent events: each change as `id: <position>` and `data: <event JSON>` (docs/webhooks.md); " +
              "`event: reset` when the asked position cannot be resumed; a comment line as heartbeat.",
            content: { "text/event-stream": { schema: z.string() } },
          },
        },
      },
      config: { ...NAME_SEGMENT_ROUTE, ...routeRules("global", ["invalid_request", "invalid_name"]) },
    },
    async (request, reply) => {
      const { namespace, name, types, lastEventId } = request.query;
      const resumeFrom = request.headers["last-event-id"] ?? lastEventId;
      // The client as the rate limits count it: an IPv6 one by its /64 (it holds all of it), a mapped IPv4 as IPv4.
      const client = normalizeIP(request.ip);
      const refuseOverCap = () => {
        if (hub.openFrom(client) >= config.stream.maxPerIp)
          throw new ApiError("rate_limited", {
            detail: `At most ${config.stream.maxPerIp} open streams per client address.`,
          });
      };
      refuseOverCap();
      const start = await hub.start(resumeFrom === undefined ? null : Number(resumeFrom));
      // Checked again after the wait: streams opened meanwhile count.
      refuseOverCap();
      const filter: ChangeFilter = {
        ...(namespace === undefined ? {} : { namespace }),
        ...(name === undefined ? {} : { name }),
        ...(types === undefined ? {} : { types }),
      };
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), ...STREAM_HEADERS });
      res.write(openingFrame(start));
      const sink: StreamSink = {
        write: (chunk) => res.write(chunk),
        get writableLength() {
          return res.writableLength;
        },
        end: () => res.end(),
        // A reset drops what the kernel still holds for a client that does not read, and tells it at once.
        destroy: () => (res.socket === null ? res.destroy() : res.socket.resetAndDestroy()),
      };
      const remove = hub.add(sink, filter, client, start);
      res.on("close", remove);
    },
  );
};
