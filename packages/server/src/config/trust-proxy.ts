// TRUST_PROXY's value: which X-Forwarded-For hops the per-IP limits may believe (docs/configuration.md).
import { z } from "zod";

/**
 * `false`, a hop count, or a comma-separated list of proxy addresses/CIDRs, as Fastify's `trustProxy` understands
 * them. Needed behind a load balancer so the per-IP rate limit sees clients, not the balancer. `true` is refused:
 * it trusts every X-Forwarded-For hop, so the client address would be the leftmost entry, which the client writes
 * itself behind any proxy that appends; each request could name a fresh address and escape every per-IP limit. A
 * hop count does what `true` was meant to (behind a proxy that replaces the header, `1`).
 */
export const trustProxy = () =>
  z
    .string()
    .trim()
    .transform((raw, ctx): false | number | string[] => {
      const lower = raw.toLowerCase();
      if (lower === "true") {
        ctx.addIssue({
          code: "custom",
          message:
            "must not be true: that trusts every X-Forwarded-For hop, so any client could choose the address the " +
            "per-IP limits count; give the number of proxies in front (1 for one load balancer) or their " +
            "addresses or CIDRs (docs/configuration.md)",
        });
        return z.NEVER;
      }
      // A number is a hop count (Fastify's meaning): `1` trusts the one proxy in front, not every hop, which would
      // let a client pick its own address with X-Forwarded-For and step round the per-IP limit.
      if (/^\d+$/.test(raw)) return Number(raw) === 0 ? false : Number(raw);
      if (lower === "false") return false;
      const list = raw
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");
      if (list.length === 0 || list.some((s) => !/^[0-9a-f.:/]+$/i.test(s))) {
        ctx.addIssue({
          code: "custom",
          message: "must be false, a hop count, or a comma-separated list of addresses or CIDRs",
        });
        return z.NEVER;
      }
      return list;
    });
