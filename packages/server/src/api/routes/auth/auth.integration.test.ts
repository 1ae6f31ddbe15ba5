// SEP-10 sign-in and session tokens on PGlite and PostgreSQL: the happy path, then every attack on challenges and
// tokens as its own test (docs/sessions.md lists them). The app's clock is injected; expiry is reached by moving
// it, never by waiting.
import { STANDALONE_PASSPHRASE } from "@namereg/devnet";
import { Account, Keypair, Operation, Transaction, TransactionBuilder, WebAuth } from "@stellar/stellar-sdk";
import { eq } from "drizzle-orm";
import { decodeJwt, decodeProtectedHeader, SignJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import {
  createTestDatabase,
  FEATURE_DATABASE_KINDS,
  type TestDatabase,
} from "../../../../test/fixtures/database.ts";
import {
  bearer,
  redeem,
  requestChallenge,
  signChallenge,
  signIn,
} from "../../../../test/fixtures/wallet-auth.ts";
import { CHALLENGE_TIMEOUT_SECONDS } from "../../../auth/challenges.ts";
import { sessionKeys } from "../../../auth/keys.ts";
import { SESSION_TTL_SECONDS } from "../../../auth/sessions.ts";
import { authChallenges, sessions } from "../../../db/tables.ts";
import { type App, buildApp } from "../../app.ts";

const HOME_DOMAIN = "namereg.test";
const config = testConfig({ NETWORK_PASSPHRASE: STANDALONE_PASSPHRASE, HOME_DOMAIN });
const server = sessionKeys(config.session.secret).challengeSigner;
const wallet = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 7));
const mallory = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 9));

const INVALID_TOKEN = { error: "unauthorized", detail: "The session token is not valid." };
const ENDED = {
  error: "unauthorized",
  detail: "The session has ended (signed out or expired); sign in again.",
};

for (const kind of FEATURE_DATABASE_KINDS) {
  describe(`wallet sign-in on ${kind}`, () => {
    let database: TestDatabase;
    let app: App;
    let clock: Date;

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      app = await buildApp({ config, db: database, redis: null, now: () => clock });
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });
    beforeEach(() => {
      clock = new Date();
    });

    const later = (seconds: number) => {
      clock = new Date(clock.getTime() + seconds * 1000);
    };
    const refused = (detail: string) => ({ statusCode: 401, body: { error: "unauthorized", detail } });
    const answer = (response: { statusCode: number; json(): unknown }) => ({
      statusCode: response.statusCode,
      body: response.json(),
    });
    /** Any console route will do: authentication comes before anything else they check. */
    const consoleCall = (headers: Record<string, string>) =>
      app.inject({ method: "POST", url: "/console/subname-policy/prepare", headers, payload: {} });

    it("issues a SEP-10 challenge signed by the server and records it for single use", async () => {
      const response = await app.inject({ url: `/auth?account=${wallet.publicKey()}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("no-store");
      // A refused request is no-store too.
      const refusedChallenge = await app.inject({ url: "/auth?account=nobody" });
      expect(refusedChallenge.statusCode).toBe(400);
      expect(refusedChallenge.headers["cache-control"]).toBe("no-store");
      const challenge = response.json();
      expect(Object.keys(challenge).sort()).toEqual(["network_passphrase", "transaction"]);
      expect(challenge.network_passphrase).toBe(STANDALONE_PASSPHRASE);

      const read = WebAuth.readChallengeTx(
        challenge.transaction,
        server.publicKey(),
        STANDALONE_PASSPHRASE,
        HOME_DOMAIN,
        HOME_DOMAIN,
      );
      expect(read.clientAccountID).toBe(wallet.publicKey());
      expect(read.matchedHomeDomain).toBe(HOME_DOMAIN);
      const tx = read.tx;
      expect(tx.sequence).toBe("0");
      expect(Number(tx.timeBounds?.maxTime) - Number(tx.timeBounds?.minTime)).toBe(CHALLENGE_TIMEOUT_SECONDS);
      expect(tx.operations.map((op) => [op.type, op.source, "name" in op ? op.name : null])).toEqual([
        ["manageData", wallet.publicKey(), `${HOME_DOMAIN} auth`],
        ["manageData", server.publicKey(), "web_auth_domain"],
      ]);

      const rows = await database.db
        .select()
        .from(authChallenges)
        .where(eq(authChallenges.id, Buffer.from(tx.hash()).toString("hex")));
      expect(rows).toEqual([
        {
          id: Buffer.from(tx.hash()).toString("hex"),
          account: wallet.publicKey(),
          createdAt: clock,
          expiresAt: new Date(clock.getTime() + CHALLENGE_TIMEOUT_SECONDS * 1000),
          usedAt: null,
        },
      ]);
    });

    it("trades a challenge signed by the wallet for a session token (HS256 JWT naming a session row)", async () => {
      const challenge = await requestChallenge(app, wallet.publicKey());
      const response = await redeem(app, signChallenge(challenge, [wallet]));
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("no-store");
      const { token } = response.json();
      expect(Object.keys(response.json())).toEqual(["token"]);

      expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", typ: "JWT" });
      const claims = decodeJwt(token);
      const iat = Math.floor(clock.getTime() / 1000);
      expect(claims).toEqual({
        iss: HOME_DOMAIN,
        sub: wallet.publicKey(),
        jti: expect.any(String),
        iat,
        exp: iat + SESSION_TTL_SECONDS,
      });
      const rows = await database.db
        .select()
        .from(sessions)
        .where(eq(sessions.id, claims.jti ?? ""));
      expect(rows).toEqual([
        {
          id: claims.jti,
          kind: "wallet",
          account: wallet.publicKey(),
          namespace: null,
          createdAt: clock,
          expiresAt: new Date(clock.getTime() + SESSION_TTL_SECONDS * 1000),
          revokedAt: null,
        },
      ]);

      // Past authentication, the console route goes on to its own checks (here: its empty body).
      const next = await consoleCall(bearer(token));
      expect(next.statusCode).toBe(400);
      expect(next.json().error).toBe("invalid_request");
    });

    it("refuses a malformed account or transaction as invalid_request", async () => {
      expect(answer(await app.inject({ url: "/auth?account=GABC" }))).toEqual({
        statusCode: 400,
        body: { error: "invalid_request", detail: "account: must be a G… account key" },
      });
      expect(answer(await app.inject({ url: "/auth" }))).toEqual({
        statusCode: 400,
        body: { error: "invalid_request", detail: "account: is required" },
      });
      expect(answer(await redeem(app, "bm90IGEgdHJhbnNhY3Rpb24="))).toEqual({
        statusCode: 400,
        body: {
          error: "invalid_request",
          detail: "transaction: must be a challenge transaction envelope in base64 XDR",
        },
      });
      expect(answer(await app.inject({ method: "POST", url: "/auth", payload: {} }))).toEqual({
        statusCode: 400,
        body: { error: "invalid_request", detail: "transaction: is required" },
      });
    });

    describe("challenge attacks", () => {
      it("replayed challenge: accepted once only", async () => {
        const signed = signChallenge(await requestChallenge(app, wallet.publicKey()), [wallet]);
        expect((await redeem(app, signed)).statusCode).toBe(200);
        expect(answer(await redeem(app, signed))).toEqual(
          refused("challenge: has already been used; request a new one"),
        );
      });

      it("concurrent redemptions of one challenge: exactly one session", async () => {
        const signed = signChallenge(await requestChallenge(app, wallet.publicKey()), [wallet]);
        const answers = await Promise.all([1, 2, 3, 4].map(() => redeem(app, signed)));
        expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401, 401, 401]);
      });

      it("expired challenge (clock): refused after its 900 s", async () => {
        const signed = signChallenge(await requestChallenge(app, wallet.publicKey()), [wallet]);
        later(CHALLENGE_TIMEOUT_SECONDS + 1);
        expect(answer(await redeem(app, signed))).toEqual(
          refused("challenge: has expired; request a new one"),
        );
      });

      it("challenge signed for the wrong network passphrase", async () => {
        const challenge = await requestChallenge(app, wallet.publicKey());
        const signed = signChallenge(challenge, [wallet], "Public Global Stellar Network ; September 2015");
        expect(answer(await redeem(app, signed))).toEqual(
          refused("challenge: None of the given signers match the transaction signatures"),
        );
      });

      it("challenge signed by the wrong key", async () => {
        const signed = signChallenge(await requestChallenge(app, wallet.publicKey()), [mallory]);
        expect(answer(await redeem(app, signed))).toEqual(
          refused("challenge: None of the given signers match the transaction signatures"),
        );
      });

      it("challenge signed by the right key and another one", async () => {
        const signed = signChallenge(await requestChallenge(app, wallet.publicKey()), [wallet, mallory]);
        expect(answer(await redeem(app, signed))).toEqual(
          refused("challenge: Transaction has unrecognized signatures"),
        );
      });

      it("tampered challenge (changed op) keeping the server's signature", async () => {
        const challenge = await requestChallenge(app, wallet.publicKey());
        const original = new Transaction(challenge.transaction, STANDALONE_PASSPHRASE);
        const bounds = original.timeBounds ?? { minTime: "0", maxTime: "0" };
        const forged = new TransactionBuilder(new Account(server.publicKey(), "-1"), {
          fee: original.fee,
          networkPassphrase: STANDALONE_PASSPHRASE,
          timebounds: { minTime: bounds.minTime, maxTime: bounds.maxTime },
        })
          .addOperation(
            Operation.manageData({
              name: `${HOME_DOMAIN} auth`,
              value: Buffer.alloc(48, 1).toString("base64"),
              source: wallet.publicKey(),
            }),
          )
          .addOperation(
            Operation.manageData({ name: "web_auth_domain", value: HOME_DOMAIN, source: server.publicKey() }),
          )
          .build();
        for (const signature of original.signatures) forged.addDecoratedSignature(signature);
        forged.sign(wallet);
        expect(answer(await redeem(app, forged.toXDR()))).toEqual(
          refused(`challenge: Transaction not signed by server: '${server.publicKey()}'`),
        );
      });

      it("unsigned challenge (sent back as received)", async () => {
        const challenge = await requestChallenge(app, wallet.publicKey());
        expect(answer(await redeem(app, challenge.transaction))).toEqual(
          refused("challenge: None of the given signers match the transaction signatures"),
        );
      });

      it("challenge for another account, signed by the requester's own key", async () => {
        // Mallory asks for a challenge naming the victim's account and signs it herself.
        const signed = signChallenge(await requestChallenge(app, wallet.publicKey()), [mallory]);
        expect(answer(await redeem(app, signed))).toEqual(
          refused("challenge: None of the given signers match the transaction signatures"),
        );
        // Her own challenge, signed by her, gives a session for her account only.
        const token = await signIn(app, mallory);
        expect(decodeJwt(token).sub).toBe(mallory.publicKey());
      });

      it("challenge from another server (another signing key)", async () => {
        const other = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 3));
        const foreign = WebAuth.buildChallengeTx(
          other,
          wallet.publicKey(),
          HOME_DOMAIN,
          CHALLENGE_TIMEOUT_SECONDS,
          STANDALONE_PASSPHRASE,
          HOME_DOMAIN,
        );
        const signed = signChallenge({ transaction: foreign, network_passphrase: STANDALONE_PASSPHRASE }, [
          wallet,
        ]);
        expect(answer(await redeem(app, signed))).toEqual(
          refused("challenge: The transaction source account is not equal to the server's account"),
        );
      });

      it("challenge with this server's key that GET /auth never issued", async () => {
        const unrecorded = WebAuth.buildChallengeTx(
          server,
          wallet.publicKey(),
          HOME_DOMAIN,
          CHALLENGE_TIMEOUT_SECONDS,
          STANDALONE_PASSPHRASE,
          HOME_DOMAIN,
        );
        const signed = signChallenge({ transaction: unrecorded, network_passphrase: STANDALONE_PASSPHRASE }, [
          wallet,
        ]);
        expect(answer(await redeem(app, signed))).toEqual(
          refused("challenge: was not issued by this server or has expired; request a new one"),
        );
      });

      it("challenge for another home domain", async () => {
        const elsewhere = WebAuth.buildChallengeTx(
          server,
          wallet.publicKey(),
          "evil.example",
          CHALLENGE_TIMEOUT_SECONDS,
          STANDALONE_PASSPHRASE,
          "evil.example",
        );
        const signed = signChallenge({ transaction: elsewhere, network_passphrase: STANDALONE_PASSPHRASE }, [
          wallet,
        ]);
        expect(answer(await redeem(app, signed))).toEqual(
          refused(
            "challenge: Invalid homeDomains: the transaction's operation key name does not match the expected home domain",
          ),
        );
      });
    });

    describe("token attacks", () => {
      it("missing bearer", async () => {
        const required = refused("Authorization: a Bearer session token is required");
        expect(answer(await consoleCall({}))).toEqual(required);
        expect(answer(await consoleCall({ authorization: "Basic dXNlcjpwYXNz" }))).toEqual(required);
        expect(answer(await app.inject({ method: "POST", url: "/auth/logout" }))).toEqual(required);
      });

      it("expired token (clock)", async () => {
        const token = await signIn(app, wallet);
        later(SESSION_TTL_SECONDS);
        expect(answer(await consoleCall(bearer(token)))).toEqual(
          refused("The session token has expired; sign in again."),
        );
      });

      it("token with a bad signature", async () => {
        const token = await signIn(app, wallet);
        const [header, payload, signature = ""] = token.split(".");
        const flipped = `${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`;
        expect(answer(await consoleCall(bearer(`${header}.${payload}.${flipped}`)))).toEqual({
          statusCode: 401,
          body: INVALID_TOKEN,
        });
      });

      it("token with a changed payload (another account)", async () => {
        const token = await signIn(app, mallory);
        const [header, payload = "", signature] = token.split(".");
        const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
        const forged = Buffer.from(JSON.stringify({ ...claims, sub: wallet.publicKey() })).toString(
          "base64url",
        );
        expect(answer(await consoleCall(bearer(`${header}.${forged}.${signature}`)))).toEqual({
          statusCode: 401,
          body: INVALID_TOKEN,
        });
      });

      it("token signed with another secret", async () => {
        const token = await signIn(app, wallet);
        const claims = decodeJwt(token);
        const forged = await new SignJWT({ ...claims })
          .setProtectedHeader({ alg: "HS256", typ: "JWT" })
          .sign(sessionKeys("another-secret-another-secret-another").tokenKey);
        expect(answer(await consoleCall(bearer(forged)))).toEqual({ statusCode: 401, body: INVALID_TOKEN });
      });

      it("token from another issuer (home domain) with the right key", async () => {
        const token = await signIn(app, wallet);
        const claims = decodeJwt(token);
        const forged = await new SignJWT({ ...claims, iss: "evil.example" })
          .setProtectedHeader({ alg: "HS256", typ: "JWT" })
          .sign(sessionKeys(config.session.secret).tokenKey);
        expect(answer(await consoleCall(bearer(forged)))).toEqual({ statusCode: 401, body: INVALID_TOKEN });
      });

      it("alg: none token", async () => {
        const token = await signIn(app, wallet);
        const payload = token.split(".")[1];
        const header = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
        expect(answer(await consoleCall(bearer(`${header}.${payload}.`)))).toEqual({
          statusCode: 401,
          body: INVALID_TOKEN,
        });
      });

      it("revoked session (signed out)", async () => {
        const token = await signIn(app, wallet);
        expect(
          answer(await app.inject({ method: "POST", url: "/auth/logout", headers: bearer(token) })),
        ).toEqual({
          statusCode: 200,
          body: { ok: true },
        });
        const revoked = await database.db
          .select({ revokedAt: sessions.revokedAt })
          .from(sessions)
          .where(eq(sessions.id, decodeJwt(token).jti ?? ""));
        expect(revoked).toEqual([{ revokedAt: clock }]);
        expect(answer(await consoleCall(bearer(token)))).toEqual({ statusCode: 401, body: ENDED });
        expect(
          answer(await app.inject({ method: "POST", url: "/auth/logout", headers: bearer(token) })),
        ).toEqual({
          statusCode: 401,
          body: ENDED,
        });
      });

      it("session row expired before its token (clock)", async () => {
        const token = await signIn(app, wallet);
        await database.db
          .update(sessions)
          .set({ expiresAt: clock })
          .where(eq(sessions.id, decodeJwt(token).jti ?? ""));
        expect(answer(await consoleCall(bearer(token)))).toEqual({ statusCode: 401, body: ENDED });
      });

      it("token naming a session that does not exist", async () => {
        const token = await signIn(app, wallet);
        const forged = await new SignJWT({ ...decodeJwt(token), jti: "no-such-session" })
          .setProtectedHeader({ alg: "HS256", typ: "JWT" })
          .sign(sessionKeys(config.session.secret).tokenKey);
        expect(answer(await consoleCall(bearer(forged)))).toEqual({ statusCode: 401, body: ENDED });
      });
    });
  });
}
