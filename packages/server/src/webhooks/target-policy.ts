// Which URLs a webhook may point at (docs/webhooks.md "Which targets are accepted"): https only unless
// WEBHOOK_ALLOW_HTTP, and never an address inside the service's own network — loopback, private, shared (CGNAT),
// link-local (the cloud metadata address 169.254.169.254 among them), unique-local, unspecified, multicast,
// reserved, or an IPv6 form that embeds one of those IPv4 addresses — unless WEBHOOK_ALLOW_PRIVATE_TARGETS. The
// same address rule is applied at registration (to the URL and what its host resolves to) and again at connect
// time to the address actually connected to (safe-dispatcher.ts), so a name that later resolves elsewhere (DNS
// rebinding) gains nothing. Address ranges are ipaddr.js's; only the allowlist of ranges is ours.
import { lookup as dnsLookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

export interface TargetPolicy {
  readonly allowHttp: boolean;
  readonly allowPrivateTargets: boolean;
}

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Every address a host name resolves to; rejects as `dns.lookup` does (`ENOTFOUND` for none). */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A URL stored for an endpoint is at most this long. */
export const URL_MAX_LENGTH = 2048;

/**
 * Why `address` may not be a webhook target, or null when it is a public unicast address. IPv6 addresses that
 * carry an IPv4 address — mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d` and
 * 6to4 `2002:aabb:ccdd::/48` — are judged by that address, which is where a translating network would send the
 * packets. The other translation prefixes (local-use NAT64, Teredo, IPv4-translated) are refused whole.
 */
export function refusedAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  const judged = parsed.kind() === "ipv6" ? (embeddedIPv4(parsed as ipaddr.IPv6) ?? parsed) : parsed;
  const range = judged.range();
  if (range === "unicast") return null;
  return `${judged.toString()} is ${RANGE_WORDS[range] ?? `a ${range}`} address`;
}

const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");
const SIX_TO_FOUR = ipaddr.parseCIDR("2002::/16");

/** The IPv4 address an IPv6 translation form carries, or null. ipaddr.js knows the ranges, not these layouts. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  const p = address.parts;
  const low32 = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  // `::` and `::1` are IPv6's own unspecified and loopback, said as such.
  if (address.match(IPV4_COMPATIBLE) && (p[6] !== 0 || (p[7] ?? 0) > 1)) return low32(p[6] ?? 0, p[7] ?? 0);
  if (address.match(NAT64_WELL_KNOWN)) return low32(p[6] ?? 0, p[7] ?? 0);
  if (address.match(SIX_TO_FOUR)) return low32(p[1] ?? 0, p[2] ?? 0);
  return null;
}

const RANGE_WORDS: Readonly<Record<string, string>> = {
  loopback: "a loopback",
  private: "a private",
  carrierGradeNat: "a shared (100.64.0.0/10)",
  linkLocal: "a link-local",
  uniqueLocal: "a unique-local (fc00::/7)",
  unspecified: "an unspecified",
  multicast: "a multicast",
  broadcast: "a broadcast",
  reserved: "a reserved",
  rfc6052: "a local-use NAT64 (64:ff9b:1::/48)",
  teredo: "a Teredo (2001::/32)",
  rfc6145: "an IPv4-translated (::ffff:0:0:0/96)",
};

/** The host of a parsed URL without IPv6 brackets; an IP literal stays as the URL parser normalised it. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

export type UrlCheck =
  | { readonly ok: true; readonly url: string }
  | { readonly ok: false; readonly detail: string };

/**
 * Checks a URL an owner registers: its form, its scheme, and (unless private targets are allowed) the address
 * its host is or resolves to. The answer's `detail` is shown to the owner in 400 `invalid_webhook_url`.
 */
export async function checkWebhookUrl(
  raw: string,
  policy: TargetPolicy,
  resolve: Resolver,
): Promise<UrlCheck> {
  const refuse = (detail: string): UrlCheck => ({ ok: false, detail });
  const tooLong = (): UrlCheck => refuse(`url: must be at most ${URL_MAX_LENGTH} characters`);
  // Encoding only lengthens a URL, so a raw one over the limit is refused before it is parsed; the limit itself
  // is on the URL as stored (percent-encoded, punycode), which is what receivers and listings get.
  if (raw.length > URL_MAX_LENGTH) return tooLong();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse("url: must be an absolute https:// URL");
  }
  if (url.protocol !== "https:" && !(policy.allowHttp && url.protocol === "http:")) {
    return refuse(
      policy.allowHttp ? "url: must be an http:// or https:// URL" : "url: must be an https:// URL",
    );
  }
  // Credentials in a URL end up in logs and in the owner's own listing; a receiver takes a signature instead.
  if (url.username !== "" || url.password !== "")
    return refuse("url: must not carry a user name or password");
  // An empty fragment ("…#") is still one: `hash` is "" for it, the stored href keeps the "#".
  if (url.href.includes("#")) return refuse("url: must not have a #fragment");
  if (url.port === "0") return refuse("url: port 0 is not a port");
  if (url.href.length > URL_MAX_LENGTH) return tooLong();
  if (policy.allowPrivateTargets) return { ok: true, url: url.href };

  const host = hostOf(url);
  if (ipaddr.isValid(host)) {
    const reason = refusedAddressReason(host);
    return reason === null ? { ok: true, url: url.href } : refuse(`url: ${reason}, which is not accepted`);
  }
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOTFOUND" || code === "ENODATA") return refuse(`url: ${host} does not resolve`);
    // A passing DNS failure is no verdict on the target; the deliverer checks every connection anyway.
    return { ok: true, url: url.href };
  }
  for (const { address } of addresses) {
    const reason = refusedAddressReason(address);
    if (reason !== null) return refuse(`url: ${host} resolves to ${reason}, which is not accepted`);
  }
  return { ok: true, url: url.href };
}
