// The spec's payment-safety rule as one call: resolve through the API, then read the lookup contract over the RPC
// and pay only when both name the same account. A mirror that is stale or compromised cannot redirect a payment.
import { LookupFns } from "@namereg/protocol";
import { Account, Operation, rpc, TransactionBuilder } from "@stellar/stellar-sdk";
import { type NameregApi, NameregError, type ResolveAnswer, resolve, type SubnameResolution } from "./api.ts";

// Simulation needs a well-formed source account, not a funded one.
const READ_SOURCE = "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7";

export interface ResolveVerifiedOptions {
  readonly rpcUrl: string;
  readonly networkPassphrase: string;
  /** The lookup contract's ID (docs/contracts.md "Lookup": `lookup(name)`), from the wallet's own configuration. */
  readonly lookupId: string;
  /** Allow plain-http RPC URLs (a local devnet). */
  readonly allowHttp?: boolean;
}

/** What the chain's lookup answered, for the memo. */
export interface ChainResolution {
  readonly address: string;
  readonly memo: string | null;
}

/** The API's answer for a name (or a subname: `SubnameResolution`) once the chain confirmed it. */
export type VerifiedResolution<A extends ResolveAnswer | SubnameResolution = ResolveAnswer> = A & {
  readonly chain: ChainResolution;
};

/**
 * The API's resolution once the chain agrees with it: `label.namespace`, or `child.label.namespace` (the lookup
 * contract resolves an active subname to its stored address, as the API does). Throws NameregError: the API's own
 * refusals (e.g. `name_not_found`), `resolution_mismatch` (409) when the chain names another account or none, and
 * `chain_unavailable` (503) when the RPC cannot be asked — never an answer the chain did not confirm.
 */
export function resolveVerified(
  api: NameregApi,
  name: `${string}.${string}.${string}`,
  options: ResolveVerifiedOptions,
): Promise<VerifiedResolution<SubnameResolution>>;
export function resolveVerified(
  api: NameregApi,
  name: `${string}.${string}`,
  options: ResolveVerifiedOptions,
): Promise<VerifiedResolution>;
export function resolveVerified(
  api: NameregApi,
  name: string,
  options: ResolveVerifiedOptions,
): Promise<VerifiedResolution<ResolveAnswer | SubnameResolution>>;
export async function resolveVerified(
  api: NameregApi,
  name: string,
  options: ResolveVerifiedOptions,
): Promise<VerifiedResolution<ResolveAnswer | SubnameResolution>> {
  const answer = await resolve(api, name);
  const chain = await confirmOnChain(answer.name, answer.account, undefined, options);
  return { ...answer, chain };
}

/**
 * The lookup contract's resolution of `name`, when it pays `account` (with `memo`, unless that is undefined; null
 * for none). Else NameregError `resolution_mismatch` (409; `api` is what the other source said, `chain` what the
 * chain says), or `chain_unavailable` (503) when the RPC cannot be asked.
 */
export async function confirmOnChain(
  name: string,
  account: string,
  memo: string | null | undefined,
  options: ResolveVerifiedOptions,
): Promise<ChainResolution> {
  const server = new rpc.Server(options.rpcUrl, {
    allowHttp: options.allowHttp ?? options.rpcUrl.startsWith("http:"),
  });
  let onChain: ChainResolution | null;
  try {
    onChain = await readLookup(server, options.networkPassphrase, options.lookupId, name);
  } catch (cause) {
    throw Object.assign(new NameregError(503, { error: "chain_unavailable", detail: String(cause) }), {
      cause,
    });
  }
  if (onChain === null || onChain.address !== account || (memo !== undefined && onChain.memo !== memo)) {
    const said = memo ? `${account} (memo ${memo})` : account;
    const chain =
      onChain === null ? "nothing" : `${onChain.address}${onChain.memo ? ` (memo ${onChain.memo})` : ""}`;
    throw new NameregError(409, {
      error: "resolution_mismatch",
      detail: `${name} resolves to ${said}, the chain to ${chain}: do not pay`,
      name,
      api: account,
      chain: onChain?.address ?? null,
    });
  }
  return onChain;
}

/** The lookup contract's answer for a name: null when it resolves nowhere. Throws when the chain cannot be asked. */
async function readLookup(
  server: rpc.Server,
  networkPassphrase: string,
  lookupId: string,
  name: string,
): Promise<ChainResolution | null> {
  const tx = new TransactionBuilder(new Account(READ_SOURCE, "0"), { fee: "100", networkPassphrase })
    .addOperation(
      Operation.invokeContractFunction({
        contract: lookupId,
        function: LookupFns.lookup.name,
        args: LookupFns.lookup.encodeArgs({ name }),
      }),
    )
    .setTimeout(0)
    .build();
  const sim = await server.simulateTransaction(tx);
  if (rpc.Api.isSimulationError(sim)) throw new Error(`lookup failed on chain: ${sim.error}`);
  if (!rpc.Api.isSimulationSuccess(sim) || sim.result === undefined)
    throw new Error("lookup returned no result");
  const resolution = LookupFns.lookup.returns.decode(sim.result.retval);
  return resolution === null || resolution === undefined
    ? null
    : { address: resolution.address, memo: resolution.memo ?? null };
}
