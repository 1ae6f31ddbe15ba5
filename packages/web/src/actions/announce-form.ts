// The announce form's input read into what the allocator takes (docs/api.md "Claim fee": basis 1–8 symbols of
// `[A-Za-z0-9_]{1,32}`, evidence at most 8 `{ label, url }` with http(s) URLs), each problem in words a person can
// act on, and the claim-fee quote's refund rules (docs/claims.md) in words. Pure functions (announce-form.test.ts).
// The claims page loads it with the page itself, which ships no Stellar SDK: the label and symbol rules come from
// @namereg/protocol's SDK-free subpaths (labels, records), the very ones the service judges with.
import { LABEL_MAX_LENGTH, labelProblem } from "@namereg/protocol/labels";
import { isSymbol } from "@namereg/protocol/records";
import { baseUnitsAmount, percent } from "../format.ts";

export interface AnnounceInput {
  readonly label: string;
  readonly basis: readonly string[];
  readonly evidence: readonly { readonly label: string; readonly url: string }[];
}

export type FormField = "label" | "basis" | "evidence";

export type ParsedAnnounce =
  | { readonly ok: true; readonly value: AnnounceInput }
  | { readonly ok: false; readonly problems: Readonly<Partial<Record<FormField, string>>> };

const MAX_BASIS = 8;
const MAX_EVIDENCE = 8;
const EVIDENCE_LABEL_MAX = 64;
const URL_MAX = 512;

/** The service's label rule (@namereg/protocol/labels), said of a namespace to claim. */
function namespaceProblem(label: string): string | null {
  switch (labelProblem(label)) {
    case null:
      return null;
    case "empty":
      return "Name the namespace to claim.";
    case "too_long":
      return `A namespace is at most ${LABEL_MAX_LENGTH} characters.`;
    case "invalid_character":
      return "A namespace is made of a-z, 0-9 and '-' only.";
    case "hyphen_at_edge":
      return "A namespace may not start or end with '-'.";
  }
}

/**
 * Reads the three fields: the namespace (lower-cased), the basis as comma-separated words ("trademark, prior use"
 * becomes `trademark`, `prior_use`), and the evidence one per line, a description and then its address.
 */
export function parseAnnounce(label: string, basis: string, evidence: string): ParsedAnnounce {
  const problems: Partial<Record<FormField, string>> = {};
  const namespace = label.trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
  const labelWhy = namespaceProblem(namespace);
  if (labelWhy !== null) problems.label = labelWhy;

  const symbols = basis
    .split(",")
    .map((b) => b.trim().replace(/\s+/g, "_"))
    .filter((b) => b !== "");
  const badSymbol = symbols.find((s) => !isSymbol(s));
  if (symbols.length === 0) problems.basis = "Give at least one basis, such as trademark or prior use.";
  else if (symbols.length > MAX_BASIS) problems.basis = `Give at most ${MAX_BASIS} bases.`;
  else if (badSymbol !== undefined)
    problems.basis = `“${badSymbol.replaceAll("_", " ")}” is not a basis: use letters, digits and spaces, at most 32 characters each.`;

  const items: { label: string; url: string }[] = [];
  const lines = evidence.split("\n").map((line) => line.trim());
  for (const [i, line] of lines.entries()) {
    if (line === "") continue;
    const at = line.lastIndexOf(" ");
    const url = at < 0 ? line : line.slice(at + 1);
    const description = at < 0 ? "" : line.slice(0, at).trim();
    const where = `Evidence line ${i + 1}`;
    if (!isWebAddress(url)) {
      problems.evidence = `${where}: end it with the evidence's http:// or https:// address.`;
      break;
    }
    if (description === "" || description.length > EVIDENCE_LABEL_MAX) {
      problems.evidence = `${where}: put a description of 1 to ${EVIDENCE_LABEL_MAX} characters before the address.`;
      break;
    }
    items.push({ label: description, url });
  }
  if (problems.evidence === undefined && items.length > MAX_EVIDENCE)
    problems.evidence = `Cite at most ${MAX_EVIDENCE} pieces of evidence.`;

  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return { ok: true, value: { label: namespace, basis: symbols, evidence: items } };
}

function isWebAddress(text: string): boolean {
  if (text.length > URL_MAX) return false;
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/** How each way a claim ends comes about, in the order a claimant meets them (docs/claims.md). */
const OUTCOMES: readonly (readonly [string, string])[] = [
  ["Awarded", "If the claim is awarded to you"],
  ["Withdrawn", "If you withdraw it"],
  ["Expired", "If it expires undecided"],
  ["Rejected", "If it is rejected"],
  ["Stuck", "If the operator marks it stuck"],
];

/**
 * The refund of `amount` (base units, 7 decimals) per outcome, as the quote's `refundBps` says, rounded down as
 * the contract rounds: "If the claim is awarded to you: nothing back; 50 XLM to the treasury."
 */
export function refundLines(amount: string, refundBps: Readonly<Record<string, number>>): string[] {
  const fee = BigInt(amount);
  return OUTCOMES.flatMap(([outcome, when]) => {
    const bps = refundBps[outcome];
    if (bps === undefined) return [];
    const refund = (fee * BigInt(bps)) / 10_000n;
    const kept = fee - refund;
    const xlm = (n: bigint) => baseUnitsAmount(n);
    const back = refund === 0n ? "nothing back" : `${xlm(refund)} back to you as credit (${percent(bps)})`;
    return [`${when}: ${back}${kept === 0n ? "" : `; ${xlm(kept)} to the treasury`}.`];
  });
}
