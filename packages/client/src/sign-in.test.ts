// signIn against a fake API: a SEP-10 challenge for the wallet's account is signed and redeemed for the token; a
// "challenge" that could do something (a submittable payment), one for another account or another network never
// reaches the signer.
import {
  Account,
  Asset,
  Keypair,
  Networks,
  Operation,
  TransactionBuilder,
  WebAuth,
} from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { createApi } from "./api.ts";
import { signIn } from "./sign-in.ts";
import type { SignWith } from "./transactions.ts";

const PASSPHRASE = Networks.STANDALONE;
const server = Keypair.random();
const owner = Keypair.random();

function fakeApi(transaction: string, network = PASSPHRASE) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetch = async (input: Request | string | URL) => {
    const request = input as Request;
    const url = new URL(request.url);
    const body = request.method === "POST" ? await request.json() : null;
    calls.push({ method: request.method, path: `${url.pathname}${url.search}`, body });
    const answer =
      request.method === "GET" ? { transaction, network_passphrase: network } : { token: "the-token" };
    return new Response(JSON.stringify(answer), { headers: { "content-type": "application/json" } });
  };
  return { api: createApi({ baseUrl: "https://names.example.com", fetch }), calls };
}

function wallet(): SignWith & { signed: string[] } {
  const signed: string[] = [];
  return {
    signed,
    networkPassphrase: PASSPHRASE,
    account: owner.publicKey(),
    signer: async (xdrText, context) => {
      signed.push(xdrText);
      const tx = TransactionBuilder.fromXDR(xdrText, context.networkPassphrase);
      tx.sign(owner);
      return tx.toXDR();
    },
  };
}

const challengeFor = (account: string) =>
  WebAuth.buildChallengeTx(server, account, "names.example.com", 900, PASSPHRASE, "names.example.com");

describe("signIn", () => {
  it("signs the service's SEP-10 challenge for the wallet's account and returns the session token", async () => {
    const challenge = challengeFor(owner.publicKey());
    const { api, calls } = fakeApi(challenge);
    const w = wallet();
    expect(await signIn(api, w)).toBe("the-token");
    expect(w.signed).toEqual([challenge]);
    expect(calls[0]).toEqual({ method: "GET", path: `/auth?account=${owner.publicKey()}`, body: null });
    const posted = (calls[1]?.body as { transaction: string } | undefined)?.transaction ?? "";
    expect(calls[1]?.path).toBe("/auth");
    // The posted challenge carries the server's and the owner's signatures, as POST /auth verifies them.
    expect(
      WebAuth.verifyChallengeTxSigners(
        posted,
        server.publicKey(),
        PASSPHRASE,
        [owner.publicKey()],
        "names.example.com",
        "names.example.com",
      ),
    ).toEqual([owner.publicKey()]);
  });

  it("never signs a challenge that could be submitted, is for another account or another network", async () => {
    // A payment from the owner's account, with a real sequence number: signing it would move funds.
    const payment = new TransactionBuilder(new Account(owner.publicKey(), "41"), {
      fee: "100",
      networkPassphrase: PASSPHRASE,
    })
      .addOperation(
        Operation.payment({ destination: server.publicKey(), asset: Asset.native(), amount: "1000" }),
      )
      .setTimeout(900)
      .build();
    payment.sign(server);
    const cases = [
      fakeApi(payment.toXDR()),
      fakeApi(challengeFor(Keypair.random().publicKey())),
      fakeApi(challengeFor(owner.publicKey()), Networks.TESTNET),
      fakeApi(challengeFor(owner.publicKey()).replace(/^A/, "B")),
    ];
    for (const { api, calls } of cases) {
      const w = wallet();
      const error = await signIn(api, w).catch((e: unknown) => e);
      expect(error).toMatchObject({
        status: 0,
        code: "prepared_transaction_rejected",
        reason: "invalid_challenge",
      });
      expect(w.signed).toEqual([]);
      expect(calls.map((c) => c.method)).toEqual(["GET"]);
    }
  });

  it("holds the challenge to the service key and home domain the wallet was configured with", async () => {
    const { api } = fakeApi(challengeFor(owner.publicKey()));
    const w = wallet();
    const otherKey = await signIn(api, w, { serverSigningKey: Keypair.random().publicKey() }).catch(
      (e: unknown) => e,
    );
    expect(otherKey).toMatchObject({ reason: "invalid_challenge" });
    const otherDomain = await signIn(api, w, { homeDomain: "evil.example" }).catch((e: unknown) => e);
    expect(otherDomain).toMatchObject({ reason: "invalid_challenge" });
    expect(w.signed).toEqual([]);
    expect(
      await signIn(api, w, { serverSigningKey: server.publicKey(), homeDomain: "names.example.com" }),
    ).toBe("the-token");
  });
});
