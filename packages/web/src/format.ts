// The one place the app turns machine values into what a person reads: times, amounts, percentages, durations,
// and text written by others (record values, display names) made safe to read. Everything goes through `Intl`
// (DateTimeFormat, RelativeTimeFormat, NumberFormat) in the reader's locale; tests pass a locale and a zone.
// Pure functions (format.test.ts); the components that show them (`<When>`, `<UserText>`) are in ui.tsx.

/**
 * Amounts the API gives in base units (a decimal string and the token's `decimals`, e.g. the claim fee: docs/api.md
 * "Claims") as a plain decimal in the asset's own unit. BigInt keeps every digit (a Number would round large
 * amounts); no library does this one shift without bringing the Stellar SDK into the page.
 */
export function fromBaseUnits(amount: string, decimals: number): string {
  if (!/^-?\d+$/.test(amount)) return amount;
  const negative = amount.startsWith("-");
  const digits = (negative ? amount.slice(1) : amount).padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals).replace(/^0+(?=\d)/, "");
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`;
}

/** As many decimals as the amount has (XLM has 7), never padded: "500", "487.5", "0.00001". */
const MAX_DECIMALS = 7;

/**
 * A decimal amount as the API writes it ("487.5000000", "1234.5") in the reader's locale with the asset's code:
 * "487.5 XLM", "1,234.5 XLM" — digits grouped, no trailing zeros. Intl.NumberFormat formats the decimal string
 * itself (exactly, past a Number's 15 digits). A value that is no decimal is shown as it came.
 */
export function amount(decimal: string, asset = "XLM", locale?: string): string {
  const text = decimal.trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) return `${decimal} ${asset}`;
  const format = new Intl.NumberFormat(locale, { maximumFractionDigits: MAX_DECIMALS });
  // `format` takes a decimal string as an exact value (ECMA-402 "Intl.NumberFormat v3"); the type still says number.
  return `${format.format(text as unknown as number)} ${asset}`;
}

/** An amount in base units (stroops for XLM): 5000000000 with 7 decimals → "500 XLM". */
export function baseUnitsAmount(
  units: string | bigint,
  decimals = 7,
  asset = "XLM",
  locale?: string,
): string {
  return amount(fromBaseUnits(units.toString(), decimals), asset, locale);
}

/** Basis points as a percentage: 250 → "2.5 %", 8000 → "80 %" (the space as the app's sentences write it). */
export function percent(bps: number, locale?: string): string {
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(bps / 100)} %`;
}

/**
 * A chain time (an ISO 8601 instant from the API) as a person reads it, in their locale and zone: date and time
 * to the minute ("2 Dec 2026, 14:28"). A value that is no date stays as it came. `<When>` (ui.tsx) shows this and
 * keeps the ISO in `<time datetime>` and its title.
 */
export function dateTime(iso: string, locale?: string, timeZone?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, {
    dateStyle: "medium",
    timeStyle: "short",
    ...(timeZone === undefined ? {} : { timeZone }),
  }).format(at);
}

/** Kept for the pages that still call it by its first name. */
export const readableTime = dateTime;

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["week", 7 * 86_400],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
  ["second", 1],
];

/**
 * How far an instant is from `now`, in the largest unit that fits: "in 6 days", "3 minutes ago", "just now". Rounded
 * toward zero, so "in 23 hours" is never said of 23 h 59 min as "in 1 day". Within 10 s it is "just now" (or "in a
 * few seconds"), not Intl's bare "now": "last progress now" and "1:07 PM (now)" do not read as English.
 */
export function relativeTime(iso: string, now: number = Date.now(), locale?: string): string | null {
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return null;
  const seconds = Math.trunc((at - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "second") {
      const count = Math.trunc(seconds / size);
      if (unit === "second" && Math.abs(seconds) < 10) return seconds > 0 ? "in a few seconds" : "just now";
      return format.format(count, unit);
    }
  }
  return null;
}

/** A length of time in whole units, largest first: 345600 → "4 days", 5400 → "1 hour". */
export function duration(seconds: number, locale?: string): string {
  const s = Math.max(0, Math.floor(seconds));
  for (const [unit, size] of UNITS) {
    if (s >= size || unit === "second")
      return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long" }).format(
        Math.floor(s / size),
      );
  }
  return String(s);
}

/**
 * A claim's objection window in words. An awarded claim's window no longer matters (the namespace is allocated), so
 * it says the window closed instead of counting down to a deadline that decides nothing.
 */
export function objectionWindow(
  claim: { readonly state: string; readonly elapsed: boolean; readonly remainingSeconds: number },
  locale?: string,
): string {
  if (claim.state === "awarded") return "closed: the claim was awarded";
  if (claim.elapsed) return "closed: the objection window has elapsed";
  return `open, ${duration(claim.remainingSeconds, locale)} left`;
}

/**
 * Characters that change how text around them is shown without being seen: the bidirectional controls (U+202E
 * turns "gnp.exe" into what reads as "exe.png") and the zero-width ones. Each is named, not applied.
 */
const INVISIBLE: Readonly<Record<string, string>> = {
  "\u061c": "ALM",
  "\u200b": "ZWSP",
  "\u200c": "ZWNJ",
  "\u200d": "ZWJ",
  "\u200e": "LRM",
  "\u200f": "RLM",
  "\u202a": "LRE",
  "\u202b": "RLE",
  "\u202c": "PDF",
  "\u202d": "LRO",
  "\u202e": "RLO",
  "\u2066": "LRI",
  "\u2067": "RLI",
  "\u2068": "FSI",
  "\u2069": "PDI",
  "\ufeff": "BOM",
};
const INVISIBLE_RE = /[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** A piece of text written by someone else: plain runs and the invisible controls it held, named. */
export type TextPart =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "control"; readonly name: string; readonly code: string };

/** Splits text into plain runs and named controls, so a page shows "[RLO]" where U+202E was. */
export function textParts(text: string): readonly TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(INVISIBLE_RE)) {
    const at = match.index ?? 0;
    if (at > last) parts.push({ kind: "text", text: text.slice(last, at) });
    const char = match[0];
    const code = `U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`;
    parts.push({ kind: "control", name: INVISIBLE[char] ?? code, code });
    last = at + char.length;
  }
  if (last < text.length) parts.push({ kind: "text", text: text.slice(last) });
  return parts;
}

/** The same as one string, for places that take text only (a review line, a title): "[RLO]" in place of U+202E. */
export function visibleControls(text: string): string {
  return textParts(text)
    .map((p) => (p.kind === "text" ? p.text : `[${p.name}]`))
    .join("");
}

/** Text records whose value is a web address (docs/api.md "GET /v1/records" shows `url` and `avatar`). */
const LINK_KEYS: ReadonlySet<string> = new Set(["url", "avatar"]);

/**
 * The address a text record links to: its value when the key is `url` or `avatar` and the value is an http(s)
 * URL, else null (shown as text). Anything else — javascript:, data:, a relative path — is never a link.
 */
export function recordLink(key: string, value: string): string | null {
  if (!LINK_KEYS.has(key)) return null;
  return webAddress(value)?.href ?? null;
}

export interface WebAddress {
  /** Where the link goes: the URL as the browser will open it. */
  readonly href: string;
  /** What the page shows: the written value, or, when its host is not plain ASCII, the URL in ASCII. */
  readonly text: string;
  /** The host as the browser connects to it (punycode for an internationalized one). */
  readonly host: string;
  /** The written host was not what the browser connects to (internationalized, mixed scripts, homoglyphs). */
  readonly rewritten: boolean;
}

/**
 * An http(s) address written by someone else, made safe to show as a link. A host with anything but ASCII —
 * an internationalized name, or Cyrillic "а" passing for Latin "a" — is shown as the URL API's ASCII form
 * (`https://xn--pple-43d.com/…`): that is the WHATWG URL parser's own UTS #46 ToASCII, the very host the browser
 * connects to, so no punycode library is needed and the page cannot show one host and open another. The path
 * keeps invisible controls percent-encoded in that form. Null for anything that is not an http(s) URL.
 */
export function webAddress(value: string): WebAddress | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  // ASCII only, and no invisible control anywhere: the value reads as what it is.
  const plain = /^[\x21-\x7e]*$/.test(value.trim());
  return { href: url.href, text: plain ? value.trim() : url.href, host: url.host, rewritten: !plain };
}
