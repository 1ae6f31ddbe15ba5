// One log line per request (docs/operations.md "Logs"): Fastify's own request logging writes two, "incoming
// request" and "request completed", which doubled the log of a busy API for nothing the second does not say.
// It is turned off (app.ts, `disableRequestLogging`) and this hook writes the completed line with the request.
import type { FastifyInstance } from "fastify";

/** Levels at which the request line is written. */
const LOGGED_AT = new Set(["trace", "debug", "info"]);

export function logOneLinePerRequest(app: FastifyInstance): void {
  app.addHook("onResponse", async (request, reply) => {
    if (!LOGGED_AT.has(request.log.level)) return;
    request.log.info(
      {
        req: {
          method: request.method,
          url: request.url,
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        },
        res: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
      },
      "request completed",
    );
  });
}
