// GET /v1/records (docs/api.md "GET /v1/records/{namespace}/{label}"): the resolver record set read live from the contracts. The mirror only
// says where to read (the namespace's resolver and registrar) and which text keys exist; every value comes from
// the chain. `address` is the pay-to address: the current payment instruction exactly as the Lookup contract gives
// it to payers — the resolver's payment if set, else the registrar's built-in address for the name (docs/contracts.md "Lookup"
// Lookup). The pay-to address and text values are essential (a failed read is 502 node_lookup_failed); the two
// verification flags are not, and read null when their read fails.
import { PrimaryFns, ResolverFns } from "@namereg/protocol";
import type { ChainClient } from "../../../chain/chain-client.ts";
import { liveRead } from "../../../chain/live-reads.ts";
import { payToAddress } from "../../common/pay-to.ts";
import { ApiError } from "../../errors.ts";

export interface RecordsInput {
  readonly name: string;
  /** The name's label within its namespace (the registrar's key). */
  readonly label: string;
  readonly node: string;
  readonly resolver: string;
  readonly registrar: string;
  readonly textKeys: readonly string[];
  readonly primaryId: string | null;
  /** The Lookup contract, when configured: its answer is the pay-to address itself. */
  readonly lookupId: string | null;
}

export interface RecordSet {
  name: string;
  node: string;
  address: string | null;
  text: Record<string, string>;
  displayName: boolean | null;
  primaryName: boolean | null;
}

const ESSENTIAL = { failure: "node_lookup_failed" } as const;

export async function readRecords(
  chainClient: ChainClient | undefined,
  input: RecordsInput,
): Promise<RecordSet> {
  const { node, resolver } = input;
  // Keys are sorted so the same records always serialise the same.
  const keys = [...new Set(input.textKeys)].sort();
  const [address, values] = await Promise.all([
    payToOf(chainClient, input),
    Promise.all(
      keys.map((key) => liveRead(chainClient, resolver, ResolverFns.text, { node, key }, ESSENTIAL)),
    ),
  ]);
  const text: Record<string, string> = {};
  keys.forEach((key, i) => {
    const value = values[i];
    if (value !== null && value !== undefined) text[key] = value;
  });
  if (address === null) {
    return { name: input.name, node, address, text, displayName: null, primaryName: null };
  }
  const primaryId = input.primaryId;
  const [display, primary] = await Promise.all([
    optional(liveRead(chainClient, resolver, ResolverFns.display_name, { address }, ESSENTIAL)),
    primaryId === null
      ? Promise.resolve(undefined)
      : optional(liveRead(chainClient, primaryId, PrimaryFns.primary, { address }, ESSENTIAL)),
  ]);
  return {
    name: input.name,
    node,
    address,
    text,
    displayName: display === undefined ? null : display === node,
    primaryName: primary === undefined ? null : primary === input.name,
  };
}

/** What a payer is told to pay: Lookup's answer, or (without a Lookup contract) the same rule read directly. */
function payToOf(chainClient: ChainClient | undefined, input: RecordsInput): Promise<string | null> {
  const parsed = {
    kind: "name" as const,
    label: input.label,
    namespace: input.name.slice(input.label.length + 1),
  };
  return payToAddress(chainClient, { ...input, parsed }, ESSENTIAL);
}

/** The value, or undefined when the read failed the way liveRead reports failures. */
async function optional<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ApiError) return undefined;
    throw err;
  }
}
