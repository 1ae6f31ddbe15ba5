// GET /v1/records (spec §2.3, §4.1 rule 3): the resolver record set read live from the contracts. The mirror only
// says where to read (the namespace's resolver) and which text keys exist; every value comes from the chain.
// The pay-to address and text values are essential (a failed read is 502 node_lookup_failed); the two
// verification flags are not, and read null when their read fails.
import { PrimaryFns, ResolverFns } from "@namereg/protocol";
import type { ChainClient } from "../../../chain/chain-client.ts";
import { liveRead } from "../../../chain/live-reads.ts";
import { ApiError } from "../../errors.ts";

export interface RecordsInput {
  readonly name: string;
  readonly node: string;
  readonly resolver: string;
  readonly textKeys: readonly string[];
  readonly primaryId: string | null;
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
  const [payment, values] = await Promise.all([
    liveRead(chainClient, resolver, ResolverFns.payment, { node }, ESSENTIAL),
    Promise.all(
      keys.map((key) => liveRead(chainClient, resolver, ResolverFns.text, { node, key }, ESSENTIAL)),
    ),
  ]);
  // The payment instruction is the pay-to address when set; otherwise the resolver's plain address record.
  const address =
    payment?.address ?? (await liveRead(chainClient, resolver, ResolverFns.addr, { node }, ESSENTIAL));
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

/** The value, or undefined when the read failed the way liveRead reports failures. */
async function optional<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ApiError) return undefined;
    throw err;
  }
}
