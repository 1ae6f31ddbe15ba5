// SEP-2 federation beside /v1 (GET /federation) and the SEP-1 stellar.toml that points wallets at it, so existing
// Stellar wallets can pay `alice*acme`. Answers are never cached (docs/api.md "SEP-2 federation and stellar.toml") and are
// open to any origin (plugins/cors.ts lists both paths).
import { isAccountId, normaliseLabel } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { sessionKeys } from "../../../auth/keys.ts";
import { noStore } from "../../cache.ts";
import { ApiError } from "../../errors.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { routeRules } from "../../route-rules.ts";
import { type FederationRecord, federationRecord, primaryFederationRecord } from "./records.ts";

const once = (issue: { input: unknown }) => (issue.input === undefined ? undefined : "must be given once");

// Not strict: SEP-2 clients of every make call this, and an extra parameter changes nothing about the answer.
const FederationQuery = z.object({
  q: z.string({ error: once }).min(1, "is required"),
  type: z
    .string({ error: once })
    .pipe(z.enum(["name", "id"], { error: "must be name or id (txid and forward are not supported)" })),
});

const FederationResponse = z.object({
  stellar_address: z.string(),
  account_id: z.string(),
  memo_type: z.literal("text").optional(),
  memo: z.string().optional(),
});

/** TOML basic strings accept JSON's escapes for the characters JSON.stringify escapes. */
const tomlString = (value: string): string => JSON.stringify(value);

export const federationRoutes: FastifyPluginAsyncZod<Pick<RouteDeps, "db" | "config" | "now">> = async (
  app,
  { db, config, now },
) => {
  const { replica } = db;
  // onRequest, not the handler: validation failures and 404s must not be cached either.
  app.addHook("onRequest", async (_request, reply) => {
    noStore(reply);
  });

  app.get(
    "/federation",
    {
      schema: { querystring: FederationQuery, response: { 200: FederationResponse } },
      config: routeRules("global", ["invalid_request", "not_found"]),
    },
    async (request) => {
      const { q, type } = request.query;
      const record = type === "name" ? await byName(q) : await byId(q);
      if (record === null) throw new ApiError("not_found");
      return type === "name" ? nameAnswer(record) : { stellar_address: addressOf(record), account_id: q };
    },
  );

  async function byName(q: string): Promise<FederationRecord | null> {
    const parts = q.split("*");
    if (parts.length !== 2 || parts[0] === "" || parts[1] === "") {
      throw new ApiError("invalid_request", {
        detail: "q: must be a federation address name*domain, such as alice*acme",
      });
    }
    // SEP-2 allows more in a name than a label holds; such a name is well formed but names nothing here.
    const label = normaliseLabel(parts[0] ?? "");
    const namespace = normaliseLabel(parts[1] ?? "");
    if (label === null || namespace === null) return null;
    return federationRecord(replica, label, namespace, now());
  }

  async function byId(q: string): Promise<FederationRecord | null> {
    if (!isAccountId(q)) {
      throw new ApiError("invalid_request", { detail: "q: must be a G… account key when type is id" });
    }
    return primaryFederationRecord(replica, q, now());
  }

  const stellarTomlRoute = { config: routeRules("global", []) };
  app.get("/.well-known/stellar.toml", stellarTomlRoute, async (_request, reply) => {
    // The published URLs come from configuration only: Host and X-Forwarded-Proto are whatever the client (or a
    // proxy) says, and a `javascript:` scheme once reached a URL wallets follow.
    const base = config.publicUrl;
    const lines = [
      `# ${config.serviceName}: SEP-2 federation for name*namespace addresses (alice*acme).`,
      `FEDERATION_SERVER=${tomlString(`${base}/federation`)}`,
      // SEP-10: where wallets get a challenge and which key signs it, so they can verify our challenges.
      `WEB_AUTH_ENDPOINT=${tomlString(`${base}/auth`)}`,
      `SIGNING_KEY=${tomlString(sessionKeys(config.session.secret).challengeSigner.publicKey())}`,
    ];
    if (config.chain.networkPassphrase !== null) {
      lines.push(`NETWORK_PASSPHRASE=${tomlString(config.chain.networkPassphrase)}`);
    }
    return reply.type("text/plain; charset=utf-8").send(`${lines.join("\n")}\n`);
  });
};

const addressOf = (record: FederationRecord): string => `${record.label}*${record.namespace}`;

/** Where to pay and with which memo; the memo is a text memo, so memo_type is `text` whenever there is one. */
function nameAnswer(record: FederationRecord): z.infer<typeof FederationResponse> {
  const answer = { stellar_address: addressOf(record), account_id: record.accountId };
  return record.memo === null ? answer : { ...answer, memo_type: "text", memo: record.memo };
}
