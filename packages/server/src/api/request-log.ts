// One log line per request (docs/operations.md "Logs"). Fastify writes two by default, "incoming request" (with the
// method and URL) and "request completed" (with the status and time), which doubled a busy API's log. Its log
// controller is the documented place to change those lines: the incoming one is dropped and the completed one
// carries the request too. Errors keep Fastify's own lines.
import { type FastifyReply, type FastifyRequest, LogController } from "fastify";

export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (error) {
      super.requestCompleted(error, request, reply, metadata);
      return;
    }
    if (this.isLogDisabled(request)) return;
    reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, "request completed");
  }
}
