// The console guard and the namespace profile on PGlite and PostgreSQL, with the chain's namespace records
// played by a stand-in chain client: namespace scoping, ownership, wallet-less sessions and logo checks, each attack as
// its own test (docs/sessions.md lists them). The real chain path is console.integration.test.ts.

import { STANDALONE_PASSPHRASE } from "@namereg/devnet";
import { type Namespace, namespaceNode, RegistryFns } from "@namereg/protocol";
import { Keypair, StrKey } from "@stellar/stellar-sdk";
import { eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import {
  createTestDatabase,
  FEATURE_DATABASE_KINDS,
  type TestDatabase,
} from "../../../../test/fixtures/database.ts";
import { bearer, signIn } from "../../../../test/fixtures/wallet-auth.ts";
import { createOperatorSession } from "../../../auth/sessions.ts";
import type { ChainClient } from "../../../chain/chain-client.ts";
import { ChainUnavailableError } from "../../../chain/contract-reader.ts";
import { namespaceProfiles, sessions } from "../../../db/tables.ts";
import { solidPng } from "../../../runtime/seed-demo.ts";
import { type App, buildApp } from "../../app.ts";
import { LABEL_RULE } from "../path-params.ts";
import { LOGO_MAX_BYTES } from "./logo.ts";

const contract = (n: number) => StrKey.encodeContract(Buffer.alloc(32, n));
const REGISTRY = contract(1);
const config = testConfig({ NETWORK_PASSPHRASE: STANDALONE_PASSPHRASE, REGISTRY_ID: REGISTRY });

const owner = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 11));
const stranger = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 12));

function record(label: string, ownerId: string): Namespace {
  return {
    label,
    owner: ownerId,
    registrar: contract(2),
    resolver: contract(3),
    locked: false,
    allocatedLedger: 5n,
    method: "allocate",
  };
}

/** acme and beta belong to `owner`, vault to a contract; `down` makes every read fail as an unreachable RPC. */
const CHAIN = new Map<string, Namespace>(
  [record("acme", owner.publicKey()), record("beta", owner.publicKey()), record("vault", contract(4))].map(
    (r) => [namespaceNode(r.label ?? ""), r],
  ),
);
let down = false;
const chainClient = {
  read: async (contractId: string, fn: unknown, args: { node: string }) => {
    if (down) throw new ChainUnavailableError("connect ECONNREFUSED");
    if (contractId !== REGISTRY || fn !== RegistryFns.namespace) throw new Error("unexpected read");
    return CHAIN.get(args.node) ?? null;
  },
} as unknown as ChainClient;

const PNG = solidPng([1, 2, 3]);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString("base64")}`;
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9,
]);
const WEBP = Buffer.concat([
  Buffer.from("RIFF"),
  Buffer.from([26, 0, 0, 0]),
  Buffer.from("WEBPVP8L"),
  Buffer.alloc(14),
]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

for (const kind of FEATURE_DATABASE_KINDS) {
  describe(`console guard on ${kind}`, () => {
    let database: TestDatabase;
    let app: App;
    const clock = new Date();

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      app = await buildApp({ config, db: database, redis: null, now: () => clock, chainClient });
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    const putProfile = async (
      token: string,
      headerNamespace: string | undefined,
      body: Record<string, unknown>,
    ) => {
      const headers: Record<string, string> = bearer(token);
      if (headerNamespace !== undefined) headers["x-service-namespace"] = headerNamespace;
      const response = await app.inject({
        method: "PUT",
        url: "/console/namespace-profile",
        headers,
        payload: body,
      });
      return { statusCode: response.statusCode, body: response.json() };
    };
    const profile = (namespace: string, extra: Record<string, unknown> = {}) => ({
      namespace,
      displayName: "Acme",
      logo: null,
      ...extra,
    });
    const sessionNamespace = async (token: string) => {
      const rows = await database.db
        .select({ namespace: sessions.namespace })
        .from(sessions)
        .where(eq(sessions.id, decodeJwt(token).jti ?? ""));
      return rows[0]?.namespace;
    };
    const badLogo = (detail: string) => ({ statusCode: 400, body: { error: "invalid_request", detail } });

    it("saves the profile for the owner and binds the fresh session to the namespace", async () => {
      const token = await signIn(app, owner);
      expect(await sessionNamespace(token)).toBeNull();
      const logo = dataUrl("image/png", PNG);
      expect(
        await putProfile(token, "acme", profile("acme", { displayName: "  Acme Corp  ", logo })),
      ).toEqual({
        statusCode: 200,
        body: { ok: true, namespace: "acme", displayName: "Acme Corp", logo },
      });
      expect(await sessionNamespace(token)).toBe("acme");
      const rows = await database.db
        .select()
        .from(namespaceProfiles)
        .where(eq(namespaceProfiles.label, "acme"));
      expect(rows).toEqual([{ label: "acme", displayName: "Acme Corp", logo, updatedAt: clock }]);

      // An update replaces both fields; a null logo removes it.
      expect(await putProfile(token, "acme", profile("acme"))).toEqual({
        statusCode: 200,
        body: { ok: true, namespace: "acme", displayName: "Acme", logo: null },
      });
      const updated = await database.db
        .select()
        .from(namespaceProfiles)
        .where(eq(namespaceProfiles.label, "acme"));
      expect(updated).toEqual([{ label: "acme", displayName: "Acme", logo: null, updatedAt: clock }]);
    });

    it("accepts JPEG and WebP logos by their bytes", async () => {
      const token = await signIn(app, owner);
      for (const [type, bytes] of [
        ["image/jpeg", JPEG],
        ["image/webp", WEBP],
      ] as const) {
        const logo = dataUrl(type, bytes);
        expect(await putProfile(token, "beta", profile("beta", { logo }))).toEqual({
          statusCode: 200,
          body: { ok: true, namespace: "beta", displayName: "Acme", logo },
        });
      }
    });

    it("header/body namespace mismatch: 409 namespace_changed", async () => {
      const token = await signIn(app, owner);
      expect(await putProfile(token, "acme", profile("beta"))).toEqual({
        statusCode: 409,
        body: {
          error: "namespace_changed",
          detail: "X-Service-Namespace, the body's namespace and the session's namespace must agree",
          header: "acme",
          body: "beta",
          session: null,
        },
      });
      expect(await sessionNamespace(token)).toBeNull();
    });

    it("session/header namespace mismatch: a bound session stays with its namespace (409)", async () => {
      const token = await signIn(app, owner);
      expect((await putProfile(token, "acme", profile("acme"))).statusCode).toBe(200);
      // The wallet owns beta too, but this session was scoped to acme.
      expect(await putProfile(token, "beta", profile("beta"))).toEqual({
        statusCode: 409,
        body: {
          error: "namespace_changed",
          detail: "X-Service-Namespace, the body's namespace and the session's namespace must agree",
          header: "beta",
          body: "beta",
          session: "acme",
        },
      });
    });

    it("missing or malformed X-Service-Namespace header: 400", async () => {
      const token = await signIn(app, owner);
      expect(await putProfile(token, undefined, profile("acme"))).toEqual({
        statusCode: 400,
        body: { error: "invalid_request", detail: "X-Service-Namespace: is required" },
      });
      expect(await putProfile(token, "Acme!", profile("acme"))).toEqual({
        statusCode: 400,
        body: {
          error: "invalid_request",
          detail: `X-Service-Namespace: ${LABEL_RULE}`,
        },
      });
    });

    it("non-owner: 403 not_namespace_owner, and the session is not bound", async () => {
      const token = await signIn(app, stranger);
      expect(await putProfile(token, "acme", profile("acme"))).toEqual({
        statusCode: 403,
        body: { error: "not_namespace_owner", namespace: "acme" },
      });
      expect(await sessionNamespace(token)).toBeNull();
    });

    it("contract (C-form) owner: 409 contract_owner_requires_adapter", async () => {
      const token = await signIn(app, owner);
      expect(await putProfile(token, "vault", profile("vault"))).toEqual({
        statusCode: 409,
        body: { error: "contract_owner_requires_adapter", namespace: "vault", owner: contract(4) },
      });
    });

    it("unknown namespace: 404 namespace_not_found", async () => {
      const token = await signIn(app, owner);
      expect(await putProfile(token, "nowhere", profile("nowhere"))).toEqual({
        statusCode: 404,
        body: { error: "namespace_not_found", namespace: "nowhere" },
      });
    });

    it("owner unknowable (chain down): 503 chain_unavailable", async () => {
      const token = await signIn(app, owner);
      down = true;
      try {
        expect(await putProfile(token, "acme", profile("acme"))).toEqual({
          statusCode: 503,
          body: { error: "chain_unavailable" },
        });
      } finally {
        down = false;
      }
    });

    it("operator session (no wallet): 400 wallet_session_required", async () => {
      const { token, session } = await createOperatorSession(database, config, { now: clock });
      expect(decodeJwt(token)).toMatchObject({ sub: "operator", jti: session.id, iss: config.homeDomain });
      expect(await putProfile(token, "acme", profile("acme"))).toEqual({
        statusCode: 400,
        body: {
          error: "wallet_session_required",
          detail: "This needs a wallet session: sign in with the namespace owner's wallet.",
        },
      });
      for (const url of ["/console/subname-policy/prepare", "/console/chain-policy/prepare"]) {
        const response = await app.inject({
          method: "POST",
          url,
          headers: { ...bearer(token), "x-service-namespace": "acme" },
          payload: url.includes("subname")
            ? { namespace: "acme", policy: "suspended" }
            : { namespace: "acme", networks: [] },
        });
        expect(response.statusCode).toBe(400);
        expect(response.json().error).toBe("wallet_session_required");
      }
    });

    it("no session: 401 before the body is even validated", async () => {
      const response = await app.inject({
        method: "PUT",
        url: "/console/namespace-profile",
        payload: { nonsense: true },
      });
      expect({
        statusCode: response.statusCode,
        cache: response.headers["cache-control"],
        body: response.json(),
      }).toEqual({
        statusCode: 401,
        cache: "no-store",
        body: { error: "unauthorized", detail: "Authorization: a Bearer session token is required" },
      });
    });

    it("SVG logo: 400, whatever type it declares", async () => {
      const token = await signIn(app, owner);
      expect(
        await putProfile(token, "acme", profile("acme", { logo: dataUrl("image/svg+xml", SVG) })),
      ).toEqual(badLogo("logo: must be a PNG, JPEG or WebP image, not image/svg+xml"));
      expect(await putProfile(token, "acme", profile("acme", { logo: dataUrl("image/png", SVG) }))).toEqual(
        badLogo("logo: the data is not a PNG image"),
      );
    });

    it("oversized logo: 400 above 64 KiB decoded", async () => {
      const token = await signIn(app, owner);
      const big = Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES + 1 - PNG.length)]);
      expect(await putProfile(token, "acme", profile("acme", { logo: dataUrl("image/png", big) }))).toEqual(
        badLogo("logo: must be at most 65536 bytes (64 KiB) decoded"),
      );
      const limit = Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES - PNG.length)]);
      expect(
        (await putProfile(token, "acme", profile("acme", { logo: dataUrl("image/png", limit) }))).statusCode,
      ).toBe(200);
    });

    it("PNG bytes with a JPEG declared type: 400 (refused, not relabelled)", async () => {
      const token = await signIn(app, owner);
      expect(await putProfile(token, "acme", profile("acme", { logo: dataUrl("image/jpeg", PNG) }))).toEqual(
        badLogo("logo: declares image/jpeg but the data is image/png"),
      );
    });

    it("logo that is not a base64 data URL: 400", async () => {
      const token = await signIn(app, owner);
      expect(
        await putProfile(token, "acme", profile("acme", { logo: "https://example.com/logo.png" })),
      ).toEqual(
        badLogo("logo: must be a data URL with a base64 payload, e.g. data:image/png;base64,iVBORw0KGgo…"),
      );
      expect(
        await putProfile(token, "acme", profile("acme", { logo: "data:image/png;base64,iVBORw0KGgo=x" })),
      ).toEqual(
        badLogo("logo: must be a data URL with a base64 payload, e.g. data:image/png;base64,iVBORw0KGgo…"),
      );
    });

    it("display name: trimmed, 1 to 64 characters, no control characters", async () => {
      const token = await signIn(app, owner);
      const detail = (d: string) => ({ statusCode: 400, body: { error: "invalid_request", detail: d } });
      expect(await putProfile(token, "acme", profile("acme", { displayName: "   " }))).toEqual(
        detail("displayName: must be 1 to 64 characters after trimming"),
      );
      expect(await putProfile(token, "acme", profile("acme", { displayName: "x".repeat(65) }))).toEqual(
        detail("displayName: must be 1 to 64 characters after trimming"),
      );
      expect(await putProfile(token, "acme", profile("acme", { displayName: "a\nb" }))).toEqual(
        detail("displayName: must not contain control characters"),
      );
      const emoji = "🚀".repeat(64);
      expect(await putProfile(token, "acme", profile("acme", { displayName: emoji }))).toEqual({
        statusCode: 200,
        body: { ok: true, namespace: "acme", displayName: emoji, logo: null },
      });
    });
  });
}
