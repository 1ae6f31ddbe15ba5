// Prepare → sign → submit against a fake API: the signer gets the prepared envelope and the network, the signed
// envelope is what is submitted, console calls carry the session, and a refused prepare never reaches the signer.
import { describe, expect, it } from "vitest";
import { createApi, NameregError } from "./api.ts";
import { changeSubname, consoleChange, setChainAddress } from "./transactions.ts";

const PASSPHRASE = "Test SDF Network ; September 2015";

function fakeApi(answers: Record<string, { status: number; body: unknown }>) {
  const calls: { path: string; body: unknown; headers: Record<string, string> }[] = [];
  const fetch = async (input: Request | string | URL) => {
    const request = input as Request;
    const path = new URL(request.url).pathname;
    calls.push({ path, body: await request.json(), headers: Object.fromEntries(request.headers) });
    const answer = answers[path] ?? { status: 404, body: { error: "not_found" } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "content-type": "application/json" },
    });
  };
  return { api: createApi({ baseUrl: "https://names.example.com", fetch }), calls };
}

describe("prepare, sign, submit", () => {
  it("signs the prepared envelope and submits the signed one", async () => {
    const { api, calls } = fakeApi({
      "/records/prepare": { status: 200, body: { ok: true, xdr: "UNSIGNED", signer: "G…", holder: "G…" } },
      "/records/submit": { status: 200, body: { ok: true, txHash: "ab".repeat(32), ledger: 7 } },
    });
    const signed: unknown[] = [];
    const signer = async (xdr: string, context: { networkPassphrase: string }) => {
      signed.push([xdr, context.networkPassphrase]);
      return `SIGNED(${xdr})`;
    };
    const body = { name: "alice.acme", chainAddress: { network: "ethereum", address: null } };
    const result = await setChainAddress(api, body, { signer, networkPassphrase: PASSPHRASE });
    expect(result).toEqual({ ok: true, txHash: "ab".repeat(32), ledger: 7 });
    expect(signed).toEqual([["UNSIGNED", PASSPHRASE]]);
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ["/records/prepare", body],
      ["/records/submit", { signedXdr: "SIGNED(UNSIGNED)" }],
    ]);
  });

  it("prepares a subname change, signs it and submits it as the holder's transaction", async () => {
    const { api, calls } = fakeApi({
      "/subnames/prepare": { status: 200, body: { ok: true, xdr: "CHILD", signer: "G…", holder: "G…" } },
      "/records/submit": { status: 202, body: { ok: false, pending: true, txHash: "cd".repeat(32) } },
    });
    const signer = async (xdr: string) => `SIGNED(${xdr})`;
    const body = {
      name: "wallet.alice.acme",
      action: "remove" as const,
      parentGeneration: "1",
      generation: "2",
    };
    const result = await changeSubname(api, body, { signer, networkPassphrase: PASSPHRASE });
    expect(result).toEqual({ ok: false, pending: true, txHash: "cd".repeat(32) });
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ["/subnames/prepare", body],
      ["/records/submit", { signedXdr: "SIGNED(CHILD)" }],
    ]);
  });

  it("sends the console session and never signs a refused prepare", async () => {
    const { api, calls } = fakeApi({
      "/console/subname-policy/prepare": {
        status: 403,
        body: { error: "not_namespace_owner", detail: "not the owner" },
      },
    });
    let signerCalled = false;
    const signer = async (xdr: string) => {
      signerCalled = true;
      return xdr;
    };
    const error = await consoleChange(
      api,
      "/console/subname-policy/prepare",
      { namespace: "acme", policy: "suspended" },
      { token: "tok", namespace: "acme" },
      { signer, networkPassphrase: PASSPHRASE },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameregError);
    expect(error).toMatchObject({ status: 403, code: "not_namespace_owner" });
    expect(signerCalled).toBe(false);
    expect(calls[0]?.headers).toMatchObject({ authorization: "Bearer tok", "x-service-namespace": "acme" });
  });
});
