// Label rules of docs/contracts.md "Names and nodes": 1–63 characters of a-z, 0-9 and '-', not starting or ending with '-'.
// The chain stores lower-case labels only; lower-casing is a route's decision (normaliseLabel), never implicit.

export const LABEL_MAX_LENGTH = 63;

export type LabelProblem = "empty" | "too_long" | "invalid_character" | "hyphen_at_edge";

const LABEL_CHARS = /^[a-z0-9-]+$/;

/** Why `label` is not a valid label, or null when it is. */
export function labelProblem(label: string): LabelProblem | null {
  if (label.length === 0) return "empty";
  if (label.length > LABEL_MAX_LENGTH) return "too_long";
  if (!LABEL_CHARS.test(label)) return "invalid_character";
  if (label.startsWith("-") || label.endsWith("-")) return "hyphen_at_edge";
  return null;
}

export function isValidLabel(label: string): boolean {
  return labelProblem(label) === null;
}

/** The label rule in words, after lower-casing: the one message every invalid name segment is answered with. */
export const LABEL_RULE =
  "must be a label: 1 to 63 characters of a-z, 0-9 and '-', not starting or ending with '-' (A-Z is lower-cased)";

/** Lower-cases (ASCII only, so no Unicode folding can turn one label into another) and validates. */
export function normaliseLabel(input: string): string | null {
  const lowered = input.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return isValidLabel(lowered) ? lowered : null;
}

export type ParsedName =
  | { kind: "namespace"; namespace: string }
  | { kind: "name"; label: string; namespace: string }
  | { kind: "subname"; child: string; label: string; namespace: string };

/** Parses `namespace`, `label.namespace` or `child.label.namespace` made of valid lower-case labels. */
export function parseName(full: string): ParsedName | null {
  const parts = full.split(".");
  if (!parts.every(isValidLabel)) return null;
  const [a, b, c] = parts;
  if (parts.length === 1 && a !== undefined) return { kind: "namespace", namespace: a };
  if (parts.length === 2 && a !== undefined && b !== undefined)
    return { kind: "name", label: a, namespace: b };
  if (parts.length === 3 && a !== undefined && b !== undefined && c !== undefined) {
    return { kind: "subname", child: a, label: b, namespace: c };
  }
  return null;
}

export function formatName(parsed: ParsedName): string {
  switch (parsed.kind) {
    case "namespace":
      return parsed.namespace;
    case "name":
      return `${parsed.label}.${parsed.namespace}`;
    case "subname":
      return `${parsed.child}.${parsed.label}.${parsed.namespace}`;
  }
}
