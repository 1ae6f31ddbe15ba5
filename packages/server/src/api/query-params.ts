// The building blocks of query-string schemas, so every route reads a parameter the same way: one value (a
// repeated parameter arrives as an array, and picking one would be a guess), integers written as plain decimal
// digits only (`1e3`, `0x10`, ` 5` or `5.0` are refused, not coerced), one message per problem.
import { z } from "zod";

/** What a parameter given twice is told. */
export const ONCE_RULE = "must be given once";

/** A parameter that must be given at most once. */
export const once = () => z.string({ error: ONCE_RULE });

/** A decimal integer parameter within [min, max], `fallback` when absent. */
export function intParam(min: number, max: number, fallback: number) {
  const range = `must be an integer from ${min} to ${max}`;
  return (
    once()
      .regex(new RegExp(`^[0-9]{1,${String(max).length}}$`), range)
      .transform(Number)
      .pipe(z.number().min(min, range).max(max, range))
      .default(fallback)
      // The document shows what the parameter means (an integer in a range), not the digits check behind it.
      .meta({ type: "integer", minimum: min, maximum: max, default: fallback, pattern: undefined })
  );
}

/** A positive decimal integer parameter (a position, an id) up to `max`, optional. */
export function positiveIntParam(max = Number.MAX_SAFE_INTEGER) {
  const rule = "must be a positive integer";
  return once()
    .regex(new RegExp(`^[0-9]{1,${String(max).length}}$`), rule)
    .transform(Number)
    .pipe(z.number().min(1, rule).max(max, rule))
    .optional()
    .meta({ type: "integer", minimum: 1, maximum: max, pattern: undefined });
}

/** The query schema of a route that takes no parameters: any given is refused, as a misspelt one would be. */
export const NoQuery = z.strictObject({});
