// The one rule for name segments in paths (and the console's namespace fields): names are case-insensitive for
// people and lower-case on chain, so ASCII A-Z is lower-cased first (no Unicode folding: it could turn one label
// into another), and what is still not a label is answered 400 with the route's invalid-input code, `invalid_name`
// on every name route, detail `<segment>: <LABEL_RULE>`. Routes take these schemas and `NAME_SEGMENT_ROUTE`; a
// handler that must validate itself (the resolve hot path) calls `labelSegment`. Not a route plugin.
import { LABEL_RULE, normaliseLabel, type ParsedName, parseName } from "@namereg/protocol";
import { z } from "zod";
import type { ApiErrorCode } from "../../errors.ts";
import { ApiError } from "../../errors.ts";
import { ONCE_RULE } from "../query-params.ts";

export { LABEL_RULE };

/** The detail of 400 `bad_address`, on every route taking a holder's or payee's address (G… or C…). */
export const ADDRESS_RULE = "address: must be a Stellar account (G…) or contract (C…) address";

/** What the OpenAPI document says about every name segment. */
export const SEGMENT_RULE =
  "Case-insensitive: ASCII A-Z is lower-cased, then it must be a label (1 to 63 characters of a-z, 0-9 and '-', " +
  "not starting or ending with '-'); anything else is 400 `invalid_name`.";

/** ASCII A-Z lower-cased, nothing else (no Unicode folding could turn another character into a label character). */
export const asciiLower = (value: string): string => value.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * A full name in a body or a filter (`namespace`, `label.namespace` or `child.label.namespace`), by the same
 * rule: A-Z lower-cased, then parsed; null when it is not a name.
 */
export function parseFoldedName(value: string): ParsedName | null {
  return parseName(asciiLower(value));
}

/** A label in a path (`namespace`, `label`, `child`), lower-cased. */
export const LabelSegment = z
  .string()
  .transform((value, ctx) => {
    const label = normaliseLabel(value);
    if (label === null) {
      ctx.issues.push({ code: "custom", message: LABEL_RULE, input: value });
      return z.NEVER;
    }
    return label;
  })
  .describe(SEGMENT_RULE);

/** `label` or `child.label` in one segment, each part lower-cased and checked as above. */
export const NAME_RULE = "must be label or child.label, each a label (A-Z is lower-cased)";
export const NameSegment = z
  .string()
  .transform((value, ctx) => {
    const parts = value.split(".").map(normaliseLabel);
    if (parts.length > 2 || parts.some((p) => p === null)) {
      ctx.issues.push({ code: "custom", message: NAME_RULE, input: value });
      return z.NEVER;
    }
    return parts.join(".");
  })
  .describe(
    "`label` or `child.label`. Case-insensitive: ASCII A-Z is lower-cased, then each part must be a label; " +
      "anything else is 400 `invalid_name`.",
  );

const NAME_FIELDS = new Set(["namespace", "label", "child", "name"]);

/**
 * Route config: an invalid name segment is `invalid_name`; other invalid input keeps `invalid_request`, a name
 * parameter given twice included (it is not an invalid name: `<name>: must be given once`, as everywhere).
 */
export const NAME_SEGMENT_ROUTE: {
  validationCode: (field: string, problem: string) => ApiErrorCode | undefined;
} = {
  validationCode: (field, problem) =>
    NAME_FIELDS.has(field) && problem !== ONCE_RULE ? "invalid_name" : undefined,
};

/** The same rule where a handler validates a segment itself: the lower-cased label, or 400 `invalid_name`. */
export function labelSegment(field: string, raw: string): string {
  const label = normaliseLabel(raw);
  if (label === null) throw new ApiError("invalid_name", { detail: `${field}: ${LABEL_RULE}` });
  return label;
}
