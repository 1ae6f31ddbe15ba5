import { describe, expect, it } from "vitest";
import {
  isDatabaseUnavailable,
  ReplicaBehindError,
  ReplicaConflictError,
  replicaError,
} from "./unavailable.ts";

const coded = (code: string, message = "x") => Object.assign(new Error(message), { code });
const wrapped = (cause: unknown) => Object.assign(new Error("Failed query: select 1"), { cause });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["refused", coded("ECONNREFUSED")],
    ["admin shutdown", coded("57P01", "terminating connection due to administrator command")],
    ["starting up", coded("57P03", "the database system is starting up")],
    ["statement timeout", coded("57014", "canceling statement due to statement timeout")],
    ["too many connections", coded("53300")],
    [
      "a database closed to connections",
      wrapped(
        Object.assign(coded("55000", 'database "x" is not currently accepting connections'), {
          routine: "CheckMyDatabase",
        }),
      ),
    ],
    ["connection exception", coded("08006")],
    ["terminated", new Error("Connection terminated unexpectedly")],
    ["connect timeout", new Error("timeout exceeded when trying to connect")],
    ["read timeout", new Error("Query read timeout")],
    ["wrapped by Drizzle", wrapped(coded("ECONNREFUSED"))],
    [
      "a replica without the table yet",
      wrapped(replicaError(coded("42P01", 'relation "names" does not exist'))),
    ],
    ["a replica without the column yet", wrapped(replicaError(coded("42703")))],
    [
      "a standby cancelling a statement for replay",
      wrapped(replicaError(coded("40001", "canceling statement due to conflict with recovery"))),
    ],
  ])("is true for %s", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a syntax error", coded("42601", "syntax error")],
    // A missing table on the writer, which is migrated before use, is a fault; only the replica's is a state.
    ["a missing table on the writer", wrapped(coded("42P01", 'relation "names" does not exist'))],
    ["a unique violation", wrapped(coded("23505"))],
    // 55000 raised by a statement (currval before nextval, …) is the statement's fault.
    [
      "object not in prerequisite state, from a statement",
      wrapped(Object.assign(coded("55000"), { routine: "currval_oid" })),
    ],
    // On the writer a serialization failure is the transaction's own conflict, not a standby's replay.
    ["a serialization failure on the writer", wrapped(coded("40001"))],
    ["a plain error", new Error("boom")],
    ["not an error", "ECONNREFUSED"],
    [
      "a failed fetch (the RPC, not the database)",
      Object.assign(new TypeError("fetch failed"), { cause: coded("ECONNREFUSED") }),
    ],
  ])("is false for %s", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe("replicaError", () => {
  it("marks the replica's missing table, column or function, and leaves every other error as it was", () => {
    for (const code of ["42P01", "42703", "42883"]) {
      expect(replicaError(coded(code))).toBeInstanceOf(ReplicaBehindError);
    }
    const other = coded("23505");
    expect(replicaError(other)).toBe(other);
  });

  it("marks the standby's recovery conflicts (a statement cancelled, a connection ended, for replay)", () => {
    for (const code of ["40001", "40P01"])
      expect(replicaError(coded(code))).toBeInstanceOf(ReplicaConflictError);
  });
});
