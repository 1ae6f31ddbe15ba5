// The typed client against a fake fetch: a success is the generated type's value, an error a NameregError with the
// spec's code, status and detail, and a network failure is a NameregError too (never a bare TypeError).
import { describe, expect, it } from "vitest";
import { createApi, NameregError, resolve, splitName } from "./api.ts";

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

  it("refuses a name that is not label.namespace before asking", () => {
    expect(() => splitName("alice")).toThrow(NameregError);
    expect(splitName("pay.alice.acme")).toEqual({ label: "pay.alice", namespace: "acme" });
  });
});
