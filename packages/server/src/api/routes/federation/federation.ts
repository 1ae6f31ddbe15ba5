// SEP-2 federation beside /v1 (GET /federation) and the SEP-1 stellar.toml that points wallets at it, so existing
// Stellar wallets can pay `alice*acme`. Answers are never cached (docs/api.md "SEP-2 federation and stellar.toml") and are
// open to any origin (plugins/cors.ts lists both paths).
import { isAccountId, normaliseLabel, parseName } from "@namereg/protocol";
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

export const federationRoutes: FastifyPluginAsyncZod<
  Pick<RouteDeps, "db" | "config" | "resolution">
> = async (app, { db, config, resolution }) => {
  const { replica } = db;
  // Expiry is judged as on resolve (docs/api.md "Expiry"): by the later of the wall clock and the latest chain
  // time, so federation never answers for a name that resolve calls expired.
  const nowSeconds = () => BigInt(resolution.clock.nowSeconds());
  // onRequest, not the handler: validation failures and 404s must not be cached either.
  app.addHook("onRequest", async (_request, reply) => {
    noStore(reply);
  });

  app.get(
    "/federation",
    {
      schema: {
        summary: "SEP-2 federation: name*domain to account and memo",
        querystring: FederationQuery,
        response: { 200: FederationResponse },
      },
      config: routeRules("global", ["invalid_request", "not_found"]),
    },
    async (request) => {
      const { q, type } = request.query;
      if (type === "id") {
        const record = await byId(q);
        if (record === null) throw new ApiError("not_found");
        return { stellar_address: addressOf(record), account_id: q };
      }
      const found = await byName(q);
      if (found === null) throw new ApiError("not_found");
      return nameAnswer(found.record, found.address);
    },
  );

  // The home domain as SEP-2 clients write it after the `*` (host names are case-insensitive).
  const homeDomain = config.homeDomain.toLowerCase();

  /**
   * Two forms (docs/api.md, federation): `label*namespace`, where the namespace stands in for the domain, and the
   * standard `label.namespace*<home domain>`, which any SEP-2 wallet resolves through the home domain's
   * stellar.toml. A label holds no dot and a domain here always does, or it is the home domain itself: the forms
   * cannot be mistaken for each other. The answer names the address in the form it was asked.
   */
  async function byName(q: string): Promise<{ record: FederationRecord; address: string } | null> {
    const parts = q.split("*");
    const [name = "", domain = ""] = parts;
    if (parts.length !== 2 || name === "" || domain === "") {
      throw new ApiError("invalid_request", {
        detail: "q: must be a federation address name*domain, such as alice*acme",
      });
    }
    if (name.includes(".") && domain.toLowerCase() === homeDomain) {
      const parsed = parseName(name.replace(/[A-Z]/g, (c) => c.toLowerCase()));
      // Subnames are not federated (their primaries are not either): only label.namespace.
      if (parsed?.kind !== "name") return null;
      const record = await federationRecord(replica, parsed.label, parsed.namespace, nowSeconds());
      return record === null
        ? null
        : { record, address: `${record.label}.${record.namespace}*${homeDomain}` };
    }
    // SEP-2 allows more in a name than a label holds; such a name is well formed but names nothing here.
    const label = normaliseLabel(name);
    const namespace = normaliseLabel(domain);
    if (label === null || namespace === null) return null;
    const record = await federationRecord(replica, label, namespace, nowSeconds());
    return record === null ? null : { record, address: addressOf(record) };
  }

  async function byId(q: string): Promise<FederationRecord | null> {
    if (!isAccountId(q)) {
      throw new ApiError("invalid_request", { detail: "q: must be a G… account key when type is id" });
    }
    return primaryFederationRecord(replica, q, nowSeconds());
  }

  const stellarTomlRoute = {
    schema: { summary: "The stellar.toml naming the federation server and the SEP-10 signing key" },
    config: {
      ...routeRules("global", []),
      plainTextResponse:
        "SEP-1 stellar.toml (FEDERATION_SERVER, WEB_AUTH_ENDPOINT, SIGNING_KEY, NETWORK_PASSPHRASE)",
    },
  };
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
function nameAnswer(record: FederationRecord, address: string): z.infer<typeof FederationResponse> {
  const answer = { stellar_address: address, account_id: record.accountId };
  return record.memo === null ? answer : { ...answer, memo_type: "text", memo: record.memo };
}
