import { ERROR_STATUS } from "@namereg/protocol";
import { describe, expect, it } from "vitest";
import { ApiError, HTTP_ERROR_STATUS, statusOfApiError } from "./errors.ts";

describe("ApiError", () => {
  it("takes its status from the protocol catalogue", () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(new ApiError(code as keyof typeof ERROR_STATUS).statusCode).toBe(status);
    }
    expect(new ApiError("chain_unavailable").statusCode).toBe(503);
  });

  it("adds the HTTP-level codes the catalogue lacks, without clashing with it", () => {
    for (const code of Object.keys(HTTP_ERROR_STATUS)) expect(Object.hasOwn(ERROR_STATUS, code)).toBe(false);
    expect(statusOfApiError("payload_too_large")).toBe(413);
    expect(statusOfApiError("method_not_allowed")).toBe(405);
  });

  it("serialises as { error, ...extra } with error first and not overridable", () => {
    const body = new ApiError("name_expired", { name: "bob.acme", error: "other" }).body();
    expect(body).toEqual({ error: "name_expired", name: "bob.acme" });
    expect(Object.keys(body)[0]).toBe("error");
  });
});
