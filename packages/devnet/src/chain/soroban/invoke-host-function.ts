// Runs one InvokeHostFunction operation's host function on a host, for simulation and for apply.
import type { xdr } from "@stellar/stellar-sdk";
import type { StateStore } from "../ledger-state.ts";
import type { AuthPolicy } from "./auth.ts";
import { addressToString } from "./contract-ids.ts";
import type { Footprint } from "./footprint.ts";
import { Host, type HostEnvironment, toHostError } from "./host.ts";
import { type HostError, hostFailure } from "./host-error.ts";
import { addressVal } from "./scval.ts";

export interface HostFunctionRun {
  readonly env: HostEnvironment;
  readonly state: StateStore;
  readonly sourceAccount: string;
  readonly hostFunction: xdr.HostFunction;
  readonly auth: AuthPolicy;
  readonly footprint: Footprint;
}

export type HostFunctionOutcome =
  | { readonly ok: true; readonly returnValue: xdr.ScVal; readonly host: Host }
  | { readonly ok: false; readonly error: HostError; readonly host: Host };

export function runHostFunction(run: HostFunctionRun): HostFunctionOutcome {
  const host = new Host(run.env, run.state, run.auth, run.footprint);
  try {
    return { ok: true, returnValue: dispatch(host, run), host };
  } catch (error) {
    return { ok: false, error: toHostError(error), host };
  }
}

function dispatch(host: Host, run: HostFunctionRun): xdr.ScVal {
  const fn = run.hostFunction;
  switch (fn.type) {
    case "hostFunctionTypeInvokeContract": {
      const args = fn.invokeContract;
      if (args.contractAddress.type !== "scAddressTypeContract") {
        throw hostFailure("Value", "scecInvalidInput", "invoked address is not a contract");
      }
      return host.invoke(addressToString(args.contractAddress), args.functionName.toString(), args.args);
    }
    case "hostFunctionTypeCreateContract":
      return createContract(
        host,
        run,
        fn.createContract.contractIdPreimage,
        fn.createContract.executable,
        [],
      );
    case "hostFunctionTypeCreateContractV2":
      return createContract(
        host,
        run,
        fn.createContractV2.contractIdPreimage,
        fn.createContractV2.executable,
        fn.createContractV2.constructorArgs,
      );
    default:
      throw hostFailure("WasmVm", "scecInvalidAction", "uploading wasm is not supported by the devnet");
  }
}

function createContract(
  host: Host,
  run: HostFunctionRun,
  preimage: xdr.ContractIdPreimage,
  executable: xdr.ContractExecutable,
  args: readonly xdr.ScVal[],
): xdr.ScVal {
  if (preimage.type !== "contractIdPreimageFromAddress") {
    throw hostFailure("Storage", "scecExistingValue", "the native asset contract already exists");
  }
  const deployer = addressToString(preimage.fromAddress.address);
  // Deployer auth is only modelled for the source account (the usual `stellar contract deploy` case).
  if (deployer !== run.sourceAccount) {
    throw hostFailure("Auth", "scecInvalidAction", `Unauthorized function call for address ${deployer}`);
  }
  if (executable.type !== "contractExecutableWasm") {
    throw hostFailure("Value", "scecInvalidInput", "only wasm executables can be deployed");
  }
  const kind = run.env.kinds.kindOfHash(executable.wasmHash.value);
  if (kind === undefined) throw hostFailure("Storage", "scecMissingValue", "Wasm does not exist");
  const contractId = host.deploy(deployer, kind, preimage.fromAddress.salt.value, args);
  return addressVal(contractId);
}
