// Amounts the API gives in base units (a decimal string and the token's `decimals`, e.g. the claim fee: docs/api.md
// "Claims") shown as the asset's own unit. BigInt keeps every digit (a Number would round large amounts); written
// by hand because the page ships no Stellar SDK and the conversion is a few lines.
export function fromBaseUnits(amount: string, decimals: number): string {
  if (!/^-?\d+$/.test(amount)) return amount;
  const negative = amount.startsWith("-");
  const digits = (negative ? amount.slice(1) : amount).padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals).replace(/^0+(?=\d)/, "");
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`;
}

/**
 * A claim's objection window in words. An awarded claim's window no longer matters (the namespace is allocated), so
 * it says when the award happened instead of counting down to a deadline that decides nothing.
 */
export function objectionWindow(claim: {
  readonly state: string;
  readonly elapsed: boolean;
  readonly remainingSeconds: number;
  readonly awardedAt: string | null;
}): string {
  if (claim.state === "awarded")
    return claim.awardedAt === null ? "closed (awarded)" : `closed (awarded ${claim.awardedAt})`;
  if (claim.elapsed) return "elapsed";
  return `${Math.ceil(claim.remainingSeconds / 3600)} h left`;
}

/**
 * A chain time (an ISO 8601 instant from the API) as a person reads it, in their locale: date and time to the
 * minute with the zone ("26 Nov 2026, 08:19 UTC"). A value that is no date stays as it came. `<When>` (ui.tsx)
 * shows this and keeps the ISO in `<time datetime>`.
 */
export function readableTime(iso: string, locale?: string, timeZone?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, {
    dateStyle: "medium",
    timeStyle: "short",
    ...(timeZone === undefined ? {} : { timeZone }),
  }).format(at);
}

/** Text records whose value is a web address (docs/api.md "GET /v1/records" shows `url` and `avatar`). */
const LINK_KEYS: ReadonlySet<string> = new Set(["url", "avatar"]);

/**
 * The address a text record links to: its value when the key is `url` or `avatar` and the value is an http(s)
 * URL, else null (shown as text). Anything else — javascript:, data:, a relative path — is never a link.
 */
export function recordLink(key: string, value: string): string | null {
  if (!LINK_KEYS.has(key)) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}
