// The registration half of the SSRF rule; the connect-time half is safe-dispatcher.test.ts.
import { describe, expect, it } from "vitest";
import { checkWebhookUrl, type Resolver, refusedAddressReason } from "./target-policy.ts";

const STRICT = { allowHttp: false, allowPrivateTargets: false };
const OPEN = { allowHttp: true, allowPrivateTargets: true };

/** A resolver for the test's own names; no real DNS. */
const resolver: Resolver = async (host) => {
  const table: Record<string, string[]> = {
    "hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
    "internal.example.com": ["10.0.0.7"],
    "mixed.example.com": ["93.184.215.14", "127.0.0.1"],
    "metadata.example.com": ["169.254.169.254"],
  };
  const addresses = table[host];
  if (addresses === undefined)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

const check = (url: string, policy = STRICT) => checkWebhookUrl(url, policy, resolver);

describe("webhook target addresses", () => {
  it("refuses loopback, private, shared, link-local, unique-local, unspecified and embedded ones", () => {
    const refused = {
      "127.0.0.1": "127.0.0.1 is a loopback address",
      "10.1.2.3": "10.1.2.3 is a private address",
      "172.16.5.4": "172.16.5.4 is a private address",
      "192.168.0.1": "192.168.0.1 is a private address",
      "100.64.0.1": "100.64.0.1 is a shared (100.64.0.0/10) address",
      "169.254.169.254": "169.254.169.254 is a link-local address",
      "0.0.0.0": "0.0.0.0 is an unspecified address",
      "::1": "::1 is a loopback address",
      "::": ":: is an unspecified address",
      "fe80::1": "fe80::1 is a link-local address",
      "fd12::1": "fd12::1 is a unique-local (fc00::/7) address",
      "::ffff:127.0.0.1": "127.0.0.1 is a loopback address",
      "::ffff:169.254.169.254": "169.254.169.254 is a link-local address",
      "64:ff9b::a00:1": "10.0.0.1 is a private address",
      "::7f00:1": "127.0.0.1 is a loopback address",
      "::a9fe:a9fe": "169.254.169.254 is a link-local address",
      "::10.1.2.3": "10.1.2.3 is a private address",
      "64:ff9b::127.0.0.1": "127.0.0.1 is a loopback address",
      "2002:a9fe:a9fe::1": "169.254.169.254 is a link-local address",
      "2002:7f00:1:5::9": "127.0.0.1 is a loopback address",
      "64:ff9b:1::5db8:d70e": "64:ff9b:1::5db8:d70e is a local-use NAT64 (64:ff9b:1::/48) address",
      "2001::1": "2001::1 is a Teredo (2001::/32) address",
      "224.0.0.1": "224.0.0.1 is a multicast address",
    };
    for (const [address, reason] of Object.entries(refused))
      expect(refusedAddressReason(address)).toBe(reason);
    expect(refusedAddressReason("93.184.215.14")).toBeNull();
    expect(refusedAddressReason("2606:4700::1111")).toBeNull();
    expect(refusedAddressReason("::ffff:93.184.215.14")).toBeNull();
    // The translation forms of a public IPv4 address are that address.
    expect(refusedAddressReason("::93.184.215.14")).toBeNull();
    expect(refusedAddressReason("64:ff9b::93.184.215.14")).toBeNull();
    expect(refusedAddressReason("2002:5db8:d70e::1")).toBeNull();
  });
});

describe("registering a webhook URL", () => {
  it("accepts a public https URL, as the URL parser normalises it", async () => {
    expect(await check("https://hooks.example.com/in?x=1")).toEqual({
      ok: true,
      url: "https://hooks.example.com/in?x=1",
    });
    expect(await check("https://93.184.215.14:8443/")).toEqual({
      ok: true,
      url: "https://93.184.215.14:8443/",
    });
  });

  it("refuses the SSRF targets without the switch, each with a reason", async () => {
    expect(await check("https://127.0.0.1/")).toEqual({
      ok: false,
      detail: "url: 127.0.0.1 is a loopback address, which is not accepted",
    });
    expect(await check("https://10.0.0.1/hook")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/private/),
    });
    expect(await check("https://169.254.169.254/latest/meta-data/")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/169\.254\.169\.254 is a link-local address/),
    });
    expect(await check("https://[::1]:8443/")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/::1 is a loopback/),
    });
    expect(await check("https://[::ffff:7f00:1]/")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/127\.0\.0\.1 is a loopback/),
    });
    // The URL parser reads the old numeric forms as the address they are.
    expect(await check("https://2130706433/")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/127\.0\.0\.1/),
    });
    expect(await check("https://0x7f.1/")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/127\.0\.0\.1/),
    });
    expect(await check("https://internal.example.com/")).toEqual({
      ok: false,
      detail: "url: internal.example.com resolves to 10.0.0.7 is a private address, which is not accepted",
    });
    expect(await check("https://mixed.example.com/")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/127\.0\.0\.1/),
    });
    expect(await check("https://metadata.example.com/")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/link-local/),
    });
    expect(await check("https://nowhere.example.com/")).toEqual({
      ok: false,
      detail: "url: nowhere.example.com does not resolve",
    });
  });

  it("accepts all of them with WEBHOOK_ALLOW_PRIVATE_TARGETS, without resolving", async () => {
    for (const url of [
      "https://127.0.0.1/",
      "https://10.0.0.1/",
      "https://169.254.169.254/",
      "https://[::1]/",
      "https://internal.example.com/",
      "https://nowhere.example.com/",
    ]) {
      expect(await check(url, { allowHttp: false, allowPrivateTargets: true })).toEqual({ ok: true, url });
    }
  });

  it("takes http only with WEBHOOK_ALLOW_HTTP, and no other scheme, credentials or fragment", async () => {
    expect(await check("http://hooks.example.com/")).toEqual({
      ok: false,
      detail: "url: must be an https:// URL",
    });
    expect(await check("http://127.0.0.1:9000/", OPEN)).toEqual({ ok: true, url: "http://127.0.0.1:9000/" });
    expect(await check("ftp://hooks.example.com/", OPEN)).toEqual({
      ok: false,
      detail: "url: must be an http:// or https:// URL",
    });
    expect(await check("hooks.example.com/in")).toEqual({
      ok: false,
      detail: "url: must be an absolute https:// URL",
    });
    expect(await check("https://user:pw@hooks.example.com/")).toEqual({
      ok: false,
      detail: "url: must not carry a user name or password",
    });
    expect(await check("https://hooks.example.com/#x")).toEqual({
      ok: false,
      detail: "url: must not have a #fragment",
    });
    expect(await check(`https://hooks.example.com/${"a".repeat(2048)}`)).toEqual({
      ok: false,
      detail: "url: must be at most 2048 characters",
    });
    expect(await check("https://hooks.example.com/in#")).toEqual({
      ok: false,
      detail: "url: must not have a #fragment",
    });
    expect(await check("https://hooks.example.com:0/in")).toEqual({
      ok: false,
      detail: "url: port 0 is not a port",
    });
  });

  it("counts the 2048 characters on the URL as stored, after percent-encoding", async () => {
    // 300 full-width letters are 300 characters typed and 2,700 once encoded (%EF%BC%A1 each).
    const typed = `https://hooks.example.com/${"Ａ".repeat(300)}`;
    expect(typed.length).toBeLessThan(2048);
    expect(await check(typed)).toEqual({ ok: false, detail: "url: must be at most 2048 characters" });
    const fits = `https://hooks.example.com/${"a".repeat(2048 - "https://hooks.example.com/".length)}`;
    expect(await check(fits)).toEqual({ ok: true, url: fits });
  });

  it("judges the IPv6 literals that embed an IPv4 address by that address", async () => {
    expect(await check("https://[::127.0.0.1]/")).toEqual({
      ok: false,
      detail: "url: 127.0.0.1 is a loopback address, which is not accepted",
    });
    expect(await check("https://[::a9fe:a9fe]/")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/169\.254\.169\.254 is a link-local/),
    });
    expect(await check("https://[64:ff9b::10.0.0.1]/")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/10\.0\.0\.1 is a private/),
    });
    expect(await check("https://[2002:c0a8:101::1]/")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/192\.168\.1\.1 is a private/),
    });
    expect(await check("https://[64:ff9b::93.184.215.14]/")).toEqual({
      ok: true,
      url: "https://[64:ff9b::5db8:d70e]/",
    });
  });
});
