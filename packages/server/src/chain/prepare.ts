// Prepared (unsigned) contract invocations for wallets (docs/design.md "Data flow" 6): the invocation is built with the
// account that must authorise it as the transaction source, simulated, and assembled with the simulated
// footprint, resources and fee. The service never signs: source-account authorisation is what lets the holder's
// own signature over the envelope authorise the call (docs/contracts.md "Contracts": authorisation).
import {
  type ArgSpec,
  type ArgValues,
  CONTRACT_ERROR_CODES,
  contractErrorNumber,
  type FnDef,
  isAccountId,
} from "@namereg/protocol";
import {
  Account,
  Address,
  Asset,
  Keypair,
  Operation,
  rpc,
  TransactionBuilder,
  xdr,
} from "@stellar/stellar-sdk";
import { ApiError } from "../errors.ts";
import { originOfContractError, specCodeOf } from "./contract-failure.ts";

export interface PreparedTransaction {
  /** Base64 TransactionEnvelope, unsigned. */
  xdr: string;
  /** Total fee bid in stroops (inclusion fee plus the simulated resource fee), as the envelope states it. */
  fee: string;
  contractId: string;
  fn: string;
  source: string;
  networkPassphrase: string;
}

/** Base inclusion fee in stroops; the simulated resource fee is added on top by assembly. */
const INCLUSION_FEE = "100";
/**
 * Validity window of a prepared transaction: long enough for a person to review and sign in a wallet, short
 * enough that a forgotten one cannot be submitted days later against changed state.
 */
export const VALIDITY_SECONDS = 900;

/**
 * The simulated call needs the authorisation of an account other than the source: the transaction could only
 * be submitted with that account's signature too, which is never what a prepare route hands out (docs/contracts.md
 * "Contracts": source-account authorisation is all the prepare routes use). A 400 invalid_request unless a route
 * knows what it means for its call (the buyer's accept_transfer: the proposal is to someone else).
 */
export class NeedsOtherSigner extends ApiError {
  readonly account: string;
  constructor(fnName: string, account: string, source: string) {
    super("invalid_request", {
      detail: `${fnName} needs the authorisation of ${account}, not of the source ${source}`,
      authorisationOf: account,
    });
    this.account = account;
  }
}

/**
 * Builds, simulates and assembles `fn(args)` on `contractId` with `source` as the transaction source.
 * Throws ApiError: 400 invalid_account (source not a G key, or no such account on chain), a contract error's
 * docs/contracts.md "Errors" code (e.g. #6 → 409 subname_generation_mismatch), 400 invalid_request for a contract error
 * without one, 503 chain_unavailable when the chain cannot be asked.
 */
export async function prepareInvocation<A extends ArgSpec, R>(
  server: rpc.Server,
  networkPassphrase: string,
  source: string,
  contractId: string,
  fn: FnDef<A, R>,
  args: ArgValues<A>,
): Promise<PreparedTransaction> {
  if (!isAccountId(source)) throw new ApiError("invalid_account", { detail: "source must be a G account" });
  const account = await loadAccount(server, source);
  const tx = new TransactionBuilder(account, { fee: INCLUSION_FEE, networkPassphrase })
    .addOperation(
      Operation.invokeContractFunction({
        contract: contractId,
        function: fn.name,
        args: fn.encodeArgs(args),
      }),
    )
    .setTimeout(VALIDITY_SECONDS)
    .build();

  let sim: rpc.Api.SimulateTransactionResponse;
  try {
    sim = await server.simulateTransaction(tx);
  } catch {
    throw new ApiError("chain_unavailable", { detail: `simulating ${fn.name} failed` });
  }
  if (rpc.Api.isSimulationError(sim)) throw simulationFailure(fn.name, networkPassphrase, sim);
  if (!rpc.Api.isSimulationSuccess(sim)) {
    throw new ApiError("chain_unavailable", { detail: `simulating ${fn.name} gave no result` });
  }
  requireSourceAuthOnly(fn.name, source, sim.result?.auth ?? []);
  const assembled = rpc.assembleTransaction(tx, sim).build();
  return {
    xdr: assembled.toXDR(),
    fee: assembled.fee,
    contractId,
    fn: fn.name,
    source,
    networkPassphrase,
  };
}

/** Every authorisation the simulation recorded is the source's own (source-account or its address credentials). */
function requireSourceAuthOnly(
  fnName: string,
  source: string,
  entries: readonly xdr.SorobanAuthorizationEntry[],
): void {
  for (const entry of entries) {
    const credentials = entry.credentials;
    const address =
      credentials.type === "sorobanCredentialsAddress"
        ? credentials.address.address
        : credentials.type === "sorobanCredentialsAddressV2"
          ? credentials.addressV2.address
          : null; // source-account credentials: the envelope's own signer
    if (address === null) continue;
    const account = Address.fromScAddress(address).toString();
    if (account !== source) throw new NeedsOtherSigner(fnName, account, source);
  }
}

/**
 * A failed simulation judged by the contract where the error started. Error numbers are per contract: the
 * naming contracts' numbers map through the table of docs/contracts.md "Errors", but an error raised inside the native token (a
 * fee or price transfer) has the token's own numbering: its #10 is an insufficient balance (409
 * insufficient_balance), not the naming contracts' invalid_chain_address.
 */
function simulationFailure(
  fnName: string,
  networkPassphrase: string,
  sim: rpc.Api.SimulateTransactionErrorResponse,
): ApiError {
  const origin = originOfContractError(sim.events ?? []);
  if (origin === null || origin.contractId !== Asset.native().contractId(networkPassphrase)) {
    return contractFailure(fnName, sim.error);
  }
  if (specCodeOf(origin, networkPassphrase) === "insufficient_balance") {
    return new ApiError("insufficient_balance", {
      detail: `the source's XLM balance does not cover what ${fnName} transfers`,
    });
  }
  return new ApiError("invalid_request", {
    detail: `${fnName} failed in the native token contract (error #${origin.code})`,
    contractError: origin.code,
  });
}

/** The mapped code of a contract error, or 400 invalid_request naming the number when docs/contracts.md "Errors" names none. */
export function contractFailure(fnName: string, hostError: string): ApiError {
  const n = contractErrorNumber(hostError);
  const code = n === null ? null : (CONTRACT_ERROR_CODES[n] ?? null);
  if (code !== null) return new ApiError(code);
  return new ApiError("invalid_request", {
    detail: `the contract rejected ${fnName}${n === null ? "" : ` (error #${n})`}`,
    contractError: n,
  });
}

/**
 * The source account with its current sequence number. The SDK's getAccount reports every failure, an
 * unreachable RPC included, as "not found"; reading the ledger entry directly keeps the two apart.
 */
export async function loadAccount(server: rpc.Server, source: string): Promise<Account> {
  return (await loadAccountEntry(server, source)).account;
}

/** The source as loadAccount gives it, with its ledger entry (balance, sub-entries, liabilities). */
export async function loadAccountEntry(
  server: rpc.Server,
  source: string,
): Promise<{ account: Account; entry: xdr.AccountEntry }> {
  if (!isAccountId(source)) throw new ApiError("invalid_account", { detail: "source must be a G account" });
  const key = xdr.LedgerKey.account(
    new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(source).xdrPublicKey() }),
  );
  let found: rpc.Api.GetLedgerEntriesResponse;
  try {
    found = await server.getLedgerEntries(key);
  } catch {
    throw new ApiError("chain_unavailable", { detail: "reading the source account failed" });
  }
  const entry = found.entries[0];
  if (entry === undefined) {
    throw new ApiError("invalid_account", { detail: "the source account does not exist on this network" });
  }
  if (entry.val.type !== "account")
    throw new ApiError("chain_unavailable", { detail: "unexpected account entry" });
  const account = entry.val.account;
  return { account: new Account(source, account.seqNum.toString()), entry: account };
}
