// The owner console (spec §4.6 rule 5, §4.7 rule 4, §5): routes that need a wallet session. They get no CORS
// headers (api/plugins/cors.ts), and every request is authenticated in onRequest, before its body is read or
// validated, so nobody without a session learns anything from these routes' input checks.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { createConsoleGuard } from "../../auth/console-guard.ts";
import type { ContractReader } from "../../chain/contract-reader.ts";
import type { Config } from "../../config/index.ts";
import type { Database } from "../../db/types.ts";
import { consoleAnnounceRoutes } from "./claims/console-announce.ts";
import type { ConsoleContext } from "./console-context.ts";
import { consolePolicyRoutes } from "./console-policy.ts";
import { consoleProfileRoutes } from "./console-profile.ts";
import { consoleListingRoutes } from "./market/console-listings.ts";

export interface ConsoleRouteOptions {
  readonly db: Database;
  readonly config: Config;
  readonly now: () => Date;
  readonly reader: ContractReader | undefined;
}

export const consoleRoutes: FastifyPluginAsyncZod<ConsoleRouteOptions> = async (app, options) => {
  const guard = createConsoleGuard(options);
  app.decorateRequest("consoleSession", null);
  app.addHook("onRequest", async (request) => {
    request.consoleSession = await guard.authenticate(request);
  });
  const context: ConsoleContext = {
    db: options.db,
    guard,
    reader: options.reader,
    now: options.now,
  };
  await app.register(consolePolicyRoutes, context);
  await app.register(consoleProfileRoutes, context);
  await app.register(consoleAnnounceRoutes, {
    ...context,
    allocatorId: options.config.chain.contracts.allocator.id,
  });
  await app.register(consoleListingRoutes, { ...context, config: options.config });
};
