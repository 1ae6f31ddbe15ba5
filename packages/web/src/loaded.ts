// What a page's read has to show: loading, its answer, or why there is none. A read asked again that fails without
// an answer about what it reads (no connection, the service failing or busy) keeps the answer already shown, saying
// it could not be refreshed: it says nothing about the thing, and a page that blanked on it would lose what it knew.
import { isNameregError } from "@namereg/client";
import { type Explained, explain } from "./errors.ts";

/** Why the last read again failed, and when the answer still shown was read (ISO). */
export interface Stale {
  readonly error: Explained;
  readonly readAt: string;
}

export type Loaded<T> =
  | { readonly state: "loading" }
  | {
      readonly state: "ok";
      readonly value: T;
      /** The last read again failed (`value` is the answer before it): why, and when `value` was read. */
      readonly stale?: Stale;
    }
  | { readonly state: "error"; readonly error: Explained };

/** The part of a query-core result a page's read is judged by. */
export interface ReadResult<T> {
  readonly status: "pending" | "error" | "success";
  readonly data: T | undefined;
  readonly error: unknown;
  readonly dataUpdatedAt: number;
}

/**
 * Whether a failure is the service's answer about what was read (a 4xx: not found, invalid, refused), which
 * replaces what was shown; else (no answer, a 5xx, 429 rate limited) it only says the read did not get through.
 */
export function isAnswer(error: unknown): boolean {
  return isNameregError(error) && error.status >= 400 && error.status < 500 && error.status !== 429;
}

export function loadedOf<T>(result: ReadResult<T>): Loaded<T> {
  if (result.status === "success") return { state: "ok", value: result.data as T };
  if (result.status === "error") {
    if (result.data !== undefined && !isAnswer(result.error))
      return {
        state: "ok",
        value: result.data,
        stale: { error: explain(result.error), readAt: new Date(result.dataUpdatedAt).toISOString() },
      };
    return { state: "error", error: explain(result.error) };
  }
  return { state: "loading" };
}
