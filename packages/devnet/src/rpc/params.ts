// Typed reads of named JSON-RPC params; a wrong type is an invalid-params error.
import { invalidParams, type RpcError } from "./errors.ts";

export type Params = Readonly<Record<string, unknown>>;

export function optionalNumber(params: Params, name: string): number | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw invalidParams(`invalid parameters: ${name} must be a non-negative integer`);
  }
  return value;
}

export function optionalString(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalidParams(`invalid parameters: ${name} must be a string`);
  return value;
}

export function requiredString(params: Params, name: string): string {
  const value = optionalString(params, name);
  if (value === undefined) throw invalidParams(`invalid parameters: ${name} is required`);
  return value;
}

export function optionalObject(params: Params, name: string): Params | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value))
    throw invalidParams(`invalid parameters: ${name} must be an object`);
  return value as Params;
}

export type XdrFormat = "base64" | "json";

export function xdrFormat(params: Params): XdrFormat {
  const value = optionalString(params, "xdrFormat");
  if (value === undefined || value === "" || value === "base64") return "base64";
  if (value === "json") return "json";
  throw invalidParams(`expected base64 or json for xdrFormat, got ${value}`);
}

/**
 * Pagination limit: `fallback` when absent or 0, an error above `max` (-32602 from getEvents; getLedgers and
 * getTransactions answer -32600 there, as stellar-rpc does).
 */
export function pageLimit(
  pagination: Params | undefined,
  fallback: number,
  max: number,
  overMax: (message: string) => RpcError = invalidParams,
): number {
  const limit = pagination === undefined ? undefined : optionalNumber(pagination, "limit");
  if (limit === undefined || limit === 0) return fallback;
  if (limit > max) throw overMax(`limit must not exceed ${max}`);
  return limit;
}
