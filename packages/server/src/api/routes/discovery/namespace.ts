// Pieces of the discovery routes: the HTTP form of the subname policy and the namespace path parameter.
import { z } from "zod";
import { LabelSegment } from "../path-params.ts";

/** The chain's symbols, as HTTP shows them (docs/api.md "Subnames, network addresses and holder transactions": `creation-disabled`, not `creation_disabled`). */
export const SUBNAME_POLICY_HTTP = {
  enabled: "enabled",
  creation_disabled: "creation-disabled",
  suspended: "suspended",
} as const;

export const SubnamePolicy = z.enum(["enabled", "creation-disabled", "suspended"]);
export type SubnamePolicy = z.infer<typeof SubnamePolicy>;

export function httpSubnamePolicy(stored: string): SubnamePolicy {
  const policy = SUBNAME_POLICY_HTTP[stored as keyof typeof SUBNAME_POLICY_HTTP];
  // The indexer stores only decoded contract symbols, so anything else is a broken projection, not input.
  if (policy === undefined) throw new Error(`unknown stored subname policy ${JSON.stringify(stored)}`);
  return policy;
}

/** A namespace label in a path: the one rule of name segments (lower-cased, then a label). */
export const NamespaceParam = LabelSegment;

export const Timestamp = z.iso.datetime();

export { asciiLower } from "../path-params.ts";
