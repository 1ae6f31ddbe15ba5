// The building blocks of query-string schemas, so every route reads a parameter the same way: one value (a
// repeated parameter arrives as an array, and picking one would be a guess), integers written as plain decimal
// digits only (`1e3`, `0x10`, ` 5` or `5.0` are refused, not coerced), one message per problem.
import { z } from "zod";

/** A parameter that must be given at most once. */
export const once = () => z.string({ error: "must be given once" });

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

/** The query schema of a route that takes no parameters: any given is refused, as a misspelt one would be. */
export const NoQuery = z.strictObject({});
