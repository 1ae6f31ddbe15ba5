// The spec's payment-safety rule as one call: resolve through the API, then read the lookup contract over the RPC
// and pay only when both name the same account. A mirror that is stale or compromised cannot redirect a payment.
import { LookupFns } from "@namereg/protocol";
import { Account, Operation, rpc, TransactionBuilder } from "@stellar/stellar-sdk";
import { type NameregApi, NameregError, type ResolveAnswer, resolve } from "./api.ts";

// Simulation needs a well-formed source account, not a funded one.
const READ_SOURCE = "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7";

export interface ResolveVerifiedOptions {
  readonly rpcUrl: string;
  readonly networkPassphrase: string;
  /** The lookup contract's ID (docs/contracts.md "Lookup": `lookup(name)`). */
  readonly lookupId: string;
  /** Allow plain-http RPC URLs (a local devnet). */
  readonly allowHttp?: boolean;
}

export interface VerifiedResolution extends ResolveAnswer {
  /** What the chain's lookup answered, for the memo. */
  readonly chain: { readonly address: string; readonly memo: string | null };
}

/**
 * The API's resolution once the chain agrees with it. Throws NameregError: the API's own refusals (e.g.
 * `name_not_found`), `resolution_mismatch` (409) when the chain names another account or none, and
 * `chain_unavailable` (503) when the RPC cannot be asked — never an answer the chain did not confirm.
 */
export async function resolveVerified(
  api: NameregApi,
  name: string,
  options: ResolveVerifiedOptions,
): Promise<VerifiedResolution> {
  const answer = await resolve(api, name);
  const server = new rpc.Server(options.rpcUrl, {
    allowHttp: options.allowHttp ?? options.rpcUrl.startsWith("http:"),
  });
  let onChain: { address: string; memo: string | null } | null;
  try {
    onChain = await readLookup(server, options.networkPassphrase, options.lookupId, answer.name);
  } catch (cause) {
    throw Object.assign(new NameregError(503, { error: "chain_unavailable", detail: String(cause) }), {
      cause,
    });
  }
  if (onChain === null || onChain.address !== answer.account) {
    throw new NameregError(409, {
      error: "resolution_mismatch",
      detail: `the API resolves ${answer.name} to ${answer.account}, the chain to ${onChain?.address ?? "nothing"}: do not pay`,
      name: answer.name,
      api: answer.account,
      chain: onChain?.address ?? null,
    });
  }
  return { ...answer, chain: onChain };
}

async function readLookup(
  server: rpc.Server,
  networkPassphrase: string,
  lookupId: string,
  name: string,
): Promise<{ address: string; memo: string | null } | null> {
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
