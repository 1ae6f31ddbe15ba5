// Prepare → verify → sign → submit against a fake API: the signer gets the prepared envelope and the network, the
// signed envelope is what is submitted, console calls carry the session, and neither a refused prepare nor a
// prepared transaction other than the one asked for ever reaches the signer.
import { randomBytes } from "node:crypto";
import { nameNode, RegistrarFns, ResolverFns } from "@namereg/protocol";
import { Account, Keypair, Operation, StrKey, TransactionBuilder, type xdr } from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { createApi, NameregError } from "./api.ts";
import { consoleCall, consoleChange } from "./console-changes.ts";
import { changeSubname, setChainAddress } from "./holder-changes.ts";

const PASSPHRASE = "Test SDF Network ; September 2015";
const HOLDER = Keypair.random().publicKey();
const CONTRACT = StrKey.encodeContract(randomBytes(32));

/** An unsigned envelope as the service prepares it: the holder's one call. */
function envelope(fn: string, args: xdr.ScVal[], contract = CONTRACT): string {
  return new TransactionBuilder(new Account(HOLDER, "7"), { fee: "100000", networkPassphrase: PASSPHRASE })
    .addOperation(Operation.invokeContractFunction({ contract, function: fn, args }))
    .setTimeout(900)
    .build()
    .toXDR();
}
const REMOVE_ETH = envelope(
  "set_chain_address",
  ResolverFns.set_chain_address.encodeArgs({
    node: nameNode("alice", "acme"),
    network: "ethereum",
    address: null,
  }),
);
const REMOVE_CHILD = envelope(
  "remove_subname",
  RegistrarFns.remove_subname.encodeArgs({
    label: "alice",
    child: "wallet",
    parentGeneration: 1n,
    generation: 2n,
  }),
);
const prepared = (xdrText: string, contract: "resolverId" | "registrarId") => ({
  ok: true,
  xdr: xdrText,
  signer: HOLDER,
  holder: HOLDER,
  network: PASSPHRASE,
  [contract]: CONTRACT,
});

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
      "/records/prepare": { status: 200, body: prepared(REMOVE_ETH, "resolverId") },
      "/records/submit": { status: 200, body: { ok: true, txHash: "ab".repeat(32), ledger: 7 } },
    });
    const signed: unknown[] = [];
    const signer = async (xdr: string, context: { networkPassphrase: string }) => {
      signed.push([xdr, context.networkPassphrase]);
      return `SIGNED(${xdr})`;
    };
    const body = { name: "alice.acme", chainAddress: { network: "ethereum", address: null } };
    const result = await setChainAddress(api, body, {
      signer,
      networkPassphrase: PASSPHRASE,
      account: HOLDER,
    });
    expect(result).toEqual({ ok: true, txHash: "ab".repeat(32), ledger: 7 });
    expect(signed).toEqual([[REMOVE_ETH, PASSPHRASE]]);
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ["/records/prepare", body],
      ["/records/submit", { signedXdr: `SIGNED(${REMOVE_ETH})` }],
    ]);
  });

  it("prepares a subname change, signs it and submits it as the holder's transaction", async () => {
    const { api, calls } = fakeApi({
      "/subnames/prepare": { status: 200, body: prepared(REMOVE_CHILD, "registrarId") },
      "/records/submit": { status: 202, body: { ok: false, pending: true, txHash: "cd".repeat(32) } },
    });
    const signer = async (xdr: string) => `SIGNED(${xdr})`;
    const body = {
      name: "wallet.alice.acme",
      action: "remove" as const,
      parentGeneration: "1",
      generation: "2",
    };
    const result = await changeSubname(api, body, { signer, networkPassphrase: PASSPHRASE, account: HOLDER });
    expect(result).toEqual({ ok: false, pending: true, txHash: "cd".repeat(32) });
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ["/subnames/prepare", body],
      ["/records/submit", { signedXdr: `SIGNED(${REMOVE_CHILD})` }],
    ]);
  });

  it("never signs nor submits a prepared transaction other than the one asked for", async () => {
    // The service answers a request to remove the ethereum address with one that removes a subname.
    const { api, calls } = fakeApi({
      "/records/prepare": { status: 200, body: prepared(REMOVE_CHILD, "resolverId") },
    });
    let signerCalled = false;
    const signer = async (xdrText: string) => {
      signerCalled = true;
      return xdrText;
    };
    const body = { name: "alice.acme", chainAddress: { network: "ethereum", address: null } };
    const error = await setChainAddress(api, body, {
      signer,
      networkPassphrase: PASSPHRASE,
      account: HOLDER,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 0,
      code: "prepared_transaction_rejected",
      reason: "function_mismatch",
    });
    expect(signerCalled).toBe(false);
    expect(calls.map((c) => c.path)).toEqual(["/records/prepare"]);
  });

  it("holds each call to the contract of its kind in the prepare answer, not any contract the answer names", async () => {
    // A records change calls the resolver: a `registrarId` slipped into the answer, naming the contract the
    // envelope really calls, must not stand in for the resolver.
    const OTHER = StrKey.encodeContract(randomBytes(32));
    const args = ResolverFns.set_chain_address.encodeArgs({
      node: nameNode("alice", "acme"),
      network: "ethereum",
      address: null,
    });
    const { api, calls } = fakeApi({
      "/records/prepare": {
        status: 200,
        body: { ...prepared(envelope("set_chain_address", args, OTHER), "resolverId"), registrarId: OTHER },
      },
    });
    let signerCalled = false;
    const signer = async (xdrText: string) => {
      signerCalled = true;
      return xdrText;
    };
    const body = { name: "alice.acme", chainAddress: { network: "ethereum", address: null } };
    const error = await setChainAddress(api, body, {
      signer,
      networkPassphrase: PASSPHRASE,
      account: HOLDER,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "prepared_transaction_rejected", reason: "contract_mismatch" });
    expect(signerCalled).toBe(false);
    expect(calls.map((c) => c.path)).toEqual(["/records/prepare"]);
  });

  it("refuses a body it cannot encode the call of before asking the service", async () => {
    const { api, calls } = fakeApi({});
    const signer = async (xdrText: string) => xdrText;
    const body = {
      name: "wallet.alice.acme",
      action: "remove" as const,
      parentGeneration: "one",
      generation: "2",
    };
    await expect(
      changeSubname(api, body, { signer, networkPassphrase: PASSPHRASE, account: HOLDER }),
    ).rejects.toMatchObject({ status: 400, code: "invalid_request" });
    expect(calls).toEqual([]);
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
      { signer, networkPassphrase: PASSPHRASE, account: HOLDER },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameregError);
    expect(error).toMatchObject({ status: 403, code: "not_namespace_owner" });
    expect(signerCalled).toBe(false);
    expect(calls[0]?.headers).toMatchObject({ authorization: "Bearer tok", "x-service-namespace": "acme" });
  });

  it("encodes the subname policy the API spells with a hyphen as the contract's symbol", () => {
    // The body says `creation-disabled` (docs/api.md); the contract's symbol is `creation_disabled`.
    const asked = consoleCall("/console/subname-policy/prepare", {
      namespace: "acme",
      policy: "creation-disabled",
    });
    expect(asked.function).toBe("set_subname_policy");
    expect(RegistrarFns.set_subname_policy.decodeArgs(asked.args)).toEqual({ policy: "creation_disabled" });
    expect(() =>
      consoleCall("/console/subname-policy/prepare", { namespace: "acme", policy: "creation_disabled" }),
    ).toThrow(NameregError);
  });
});
