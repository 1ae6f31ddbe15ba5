// The pay-to address of a name or subname, read live: exactly what the Lookup contract's `lookup(name)` answers
// payers (docs/contracts.md "Lookup") — read through LOOKUP_ID when configured, else by the same rule from the
// resolver (its payment instruction) and the registrar (the name's built-in address, a subname's stored address).
// Shared by the records read (GET /v1/records) and the primary-name prepare, which must name the very address
// the primary contract will check the name against.
import { LookupFns, type ParsedName, RegistrarFns, ResolverFns } from "@namereg/protocol";
import type { ChainClient } from "../../chain/chain-client.ts";
import { type LiveReadOptions, liveRead } from "../../chain/live-reads.ts";

export interface PayToInput {
  /** The full name (`label.namespace` or `child.label.namespace`). */
  readonly name: string;
  readonly parsed: Extract<ParsedName, { kind: "name" | "subname" }>;
  readonly node: string;
  readonly registrar: string;
  readonly resolver: string | null;
  /** The Lookup contract, when configured: its answer is the pay-to address itself. */
  readonly lookupId: string | null;
}

/** The address payers are told to pay, or null (no such live name); a failed read throws `opts.failure`. */
export async function payToAddress(
  chainClient: ChainClient | undefined,
  input: PayToInput,
  opts: LiveReadOptions,
): Promise<string | null> {
  if (input.lookupId !== null) {
    const resolution = await liveRead(
      chainClient,
      input.lookupId,
      LookupFns.lookup,
      { name: input.name },
      opts,
    );
    return resolution?.address ?? null;
  }
  const { parsed } = input;
  if (parsed.kind === "subname") {
    const child = await liveRead(
      chainClient,
      input.registrar,
      RegistrarFns.subname,
      { label: parsed.label, child: parsed.child },
      opts,
    );
    return child?.address ?? null;
  }
  const [payment, record] = await Promise.all([
    input.resolver === null
      ? Promise.resolve(null)
      : liveRead(chainClient, input.resolver, ResolverFns.payment, { node: input.node }, opts),
    liveRead(chainClient, input.registrar, RegistrarFns.name, { label: parsed.label }, opts),
  ]);
  return payment?.address ?? record?.address ?? null;
}
