// SEP-10 wallet sign-in (docs/api.md "Wallet sessions and the owner console"; docs/sessions.md): GET /auth issues a challenge for an account, POST /auth
// redeems it signed by that account for a session token, POST /auth/logout revokes the session. These routes get
// no CORS headers (api/plugins/cors.ts): only the console's own origin signs in.
import { isAccountId } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { issueChallenge, redeemChallenge } from "../../../auth/challenges.ts";
import { createConsoleGuard } from "../../../auth/console-guard.ts";
import { sessionKeys } from "../../../auth/keys.ts";
import { openSession, revokeSession } from "../../../auth/sessions.ts";
import { noStoreHook } from "../../cache.ts";
import { ApiError } from "../../errors.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { routeRules } from "../../route-rules.ts";

const ChallengeQuery = z.strictObject({
  account: z.string({ error: "is required" }).refine(isAccountId, "must be a G… account key"),
});
const ChallengeResponse = z.object({ transaction: z.string(), network_passphrase: z.string() });

const TokenBody = z.strictObject({ transaction: z.string({ error: "is required" }).min(1).max(8192) });
const TokenResponse = z.object({ token: z.string() });

const LogoutResponse = z.object({ ok: z.literal(true) });

export const authRoutes: FastifyPluginAsyncZod<Pick<RouteDeps, "db" | "config" | "now">> = async (
  app,
  { db, config, now },
) => {
  const keys = sessionKeys(config.session.secret);
  const guard = createConsoleGuard({ db, config, now, chainClient: undefined });
  // This plugin's scope only: every answer, a refused sign-in included, is no-store.
  app.addHook("onRequest", noStoreHook);

  /** Challenges are bound to a network passphrase; without one configured there is nothing to sign for. */
  const challengeContext = () => {
    const networkPassphrase = config.chain.networkPassphrase;
    if (networkPassphrase === null) throw new ApiError("chain_unavailable");
    return { db, keys, homeDomain: config.homeDomain, networkPassphrase, now: now() };
  };

  app.get(
    "/auth",
    {
      schema: {
        summary: "SEP-10: a challenge transaction for a wallet to sign",
        querystring: ChallengeQuery,
        response: { 200: ChallengeResponse },
      },
      config: routeRules("auth", ["invalid_request", "invalid_account", "chain_unavailable"]),
    },
    async (request) => {
      const ctx = challengeContext();
      const transaction = await issueChallenge(ctx, request.query.account);
      return { transaction, network_passphrase: ctx.networkPassphrase };
    },
  );

  const tokenRoute = {
    schema: {
      summary: "SEP-10: exchange the signed challenge for a session token",
      body: TokenBody,
      response: { 200: TokenResponse },
    },
    config: routeRules("auth", ["invalid_request", "unauthorized", "chain_unavailable"]),
  };
  app.post("/auth", tokenRoute, async (request) => {
    const ctx = challengeContext();
    const account = await redeemChallenge(ctx, request.body.transaction);
    const { token } = await openSession(db, config, { kind: "wallet", account, now: ctx.now });
    return { token };
  });

  const logoutRoute = {
    schema: { summary: "End the session", response: { 200: LogoutResponse } },
    config: routeRules("global", ["invalid_request", "unauthorized"]),
  };
  app.post("/auth/logout", logoutRoute, async (request) => {
    const session = await guard.authenticate(request);
    await revokeSession(db, session.sessionId, now());
    return { ok: true as const };
  });
};
