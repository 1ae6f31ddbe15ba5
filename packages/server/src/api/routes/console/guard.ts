// The owner console (docs/api.md "Wallet sessions and the owner console"; docs/sessions.md): routes that need a wallet session. They get no CORS
// headers (api/plugins/cors.ts), and every request is authenticated in onRequest, before its body is read or
// validated, so nobody without a session learns anything from these routes' input checks. The app registers the
// console's route plugins inside one scope that this guard is installed on first.
import type { FastifyInstance } from "fastify";
import { createConsoleGuard } from "../../../auth/console-guard.ts";
import { noStoreHook } from "../../cache.ts";
import type { ConsoleContext } from "../../common/console-context.ts";
import type { RouteDeps } from "../../route-deps.ts";

/** Installs the session check on `scope`; returns what the console's route plugins are registered with. */
export function installConsoleGuard(
  scope: FastifyInstance,
  deps: Pick<RouteDeps, "db" | "config" | "now" | "chainClient">,
): ConsoleContext {
  const guard = createConsoleGuard(deps);
  scope.decorateRequest("consoleSession", null);
  // First, so the guard's own 401 and 403 are not kept by a cache either.
  scope.addHook("onRequest", noStoreHook);
  scope.addHook("onRequest", async (request) => {
    request.consoleSession = await guard.authenticate(request);
  });
  return { db: deps.db, guard, chainClient: deps.chainClient, now: deps.now };
}
