// The typed client against a fake fetch: a success is the generated type's value, an error a NameregError with the
// spec's code, status and detail, and a network failure is a NameregError too (never a bare TypeError).
import { describe, expect, it } from "vitest";
import { createApi, isNameregError, NameregError, resolve, splitName } from "./api.ts";
import { PreparedTransactionRejected } from "./verify-prepared.ts";

const ALICE = {
  name: "alice.acme",
  account: "GBWMCCC3NHSKLAOJDBKKYW7SSH2PFTTNVFKWSGLWGDLEBKLOVP5JLBBP",
  ownership: "expiring",
  storage: "live",
  expires_at: "2027-01-01T00:00:00.000Z",
  ledger: 42,
};

function fakeFetch(status: number, body: unknown, seen: string[] = []): typeof fetch {
  return async (input: Request | string | URL) => {
    seen.push(input instanceof Request ? input.url : String(input));
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  };
}

describe("@namereg/client", () => {
  it("resolves to the generated type's value, on the right path", async () => {
    const seen: string[] = [];
    const api = createApi({ baseUrl: "https://names.example.com/", fetch: fakeFetch(200, ALICE, seen) });
    const answer = await resolve(api, "alice.acme");
    expect(answer.account).toBe(ALICE.account);
    expect(answer).toEqual(ALICE);
    expect(seen).toEqual(["https://names.example.com/v1/resolve/acme/alice"]);
  });

  it("surfaces an API error as a NameregError with the spec's code", async () => {
    const api = createApi({
      baseUrl: "https://names.example.com",
      fetch: fakeFetch(404, { error: "name_not_found", name: "nobody.acme" }),
    });
    const error = await resolve(api, "nobody.acme").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameregError);
    expect(error).toMatchObject({ status: 404, code: "name_not_found", body: { name: "nobody.acme" } });
  });

  it("surfaces a network failure as a NameregError", async () => {
    const api = createApi({
      baseUrl: "https://names.example.com",
      fetch: async () => {
        throw new TypeError("fetch failed");
      },
    });
    await expect(resolve(api, "alice.acme")).rejects.toMatchObject({ status: 0, code: "network_error" });
  });

  it("refuses a name that is neither label.namespace nor child.label.namespace before asking", () => {
    for (const bad of ["alice", "a.b.c.d", "alice.", ".acme"]) {
      expect(() => splitName(bad)).toThrow(NameregError);
    }
    expect(splitName("alice.acme")).toEqual({ label: "alice", namespace: "acme" });
    expect(splitName("pay.alice.acme")).toEqual({ child: "pay", label: "alice", namespace: "acme" });
  });

  it("resolves a subname through the subname route to the child's address while it is active", async () => {
    const child = {
      name: "pay.alice.acme",
      parent: "alice.acme",
      parentContext: {
        name: "alice.acme",
        holder: ALICE.account,
        generation: "1",
        active: true,
        expiresAt: null,
      },
      policy: "enabled",
      registrarId: "CREG",
      record: {
        exists: true,
        active: true,
        validBinding: true,
        controller: ALICE.account,
        parentGeneration: "1",
        generation: "3",
        address: "GPAYTO",
        expiresAt: null,
        policy: "enabled",
        source: "chain",
      },
    };
    const seen: string[] = [];
    const api = createApi({ baseUrl: "https://names.example.com", fetch: fakeFetch(200, child, seen) });
    expect(await resolve(api, "pay.alice.acme")).toEqual({
      name: "pay.alice.acme",
      parent: "alice.acme",
      account: "GPAYTO",
      controller: ALICE.account,
      expires_at: null,
      generation: "3",
    });
    expect(seen).toEqual(["https://names.example.com/v1/subnames/acme/alice/pay"]);

    const removed = { ...child, record: { ...child.record, exists: false, active: false } };
    const gone = createApi({ baseUrl: "https://names.example.com", fetch: fakeFetch(200, removed) });
    await expect(resolve(gone, "pay.alice.acme")).rejects.toMatchObject({
      status: 404,
      code: "name_not_found",
      body: { name: "pay.alice.acme" },
    });
  });

  it("carries every field of the spec's error body, and says what came when it is not one", async () => {
    const failed = {
      error: "transaction_failed",
      txHash: "ab".repeat(32),
      resultCode: "txFailed",
      contractError: 6,
      code: "subname_generation_mismatch",
    };
    const api = createApi({ baseUrl: "https://names.example.com", fetch: fakeFetch(409, failed) });
    const error = await resolve(api, "alice.acme").catch((e: unknown) => e);
    expect(isNameregError(error, "transaction_failed")).toBe(true);
    expect(isNameregError(error, "name_not_found")).toBe(false);
    expect(error).toMatchObject({ status: 409, code: "transaction_failed", body: failed });
    expect((error as NameregError).field("contractError")).toBe(6);

    const proxy: typeof fetch = async () =>
      new Response("<html>Bad gateway</html>", { status: 502, headers: { "content-type": "text/html" } });
    const behindProxy = createApi({ baseUrl: "https://names.example.com", fetch: proxy });
    await expect(resolve(behindProxy, "alice.acme")).rejects.toMatchObject({
      status: 502,
      code: "unknown_error",
      detail: "HTTP 502: <html>Bad gateway</html>",
    });
  });

  it("narrows prepared_transaction_rejected to the client's own refusal, with its reason", async () => {
    const refused: unknown = new PreparedTransactionRejected("fee_too_high", "fee 2 XLM is above the bound");
    // Read through the narrowed type: `reason` is typed only when isNameregError narrows to the refusal.
    const reason = isNameregError(refused, "prepared_transaction_rejected") ? refused.reason : null;
    expect(reason).toBe("fee_too_high");
    // An answer claiming the client's own code (the API never sends it) is not the client's refusal.
    const claimed = { error: "prepared_transaction_rejected", detail: "trust me" };
    const api = createApi({ baseUrl: "https://names.example.com", fetch: fakeFetch(400, claimed) });
    const error = await resolve(api, "alice.acme").catch((e: unknown) => e);
    expect(isNameregError(error)).toBe(true);
    expect(isNameregError(error, "prepared_transaction_rejected")).toBe(false);
  });
});
