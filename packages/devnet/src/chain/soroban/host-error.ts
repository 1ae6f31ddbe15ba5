// Soroban host errors: what a failed invocation reports as `Error(Type, Code)`.
import { xdr } from "@stellar/stellar-sdk";

const TYPE_NAMES: Record<string, string> = {
  sceContract: "Contract",
  sceWasmVm: "WasmVm",
  sceContext: "Context",
  sceStorage: "Storage",
  sceObject: "Object",
  sceCrypto: "Crypto",
  sceEvents: "Events",
  sceBudget: "Budget",
  sceValue: "Value",
  sceAuth: "Auth",
};

export type ScErrorCodeName =
  | "scecArithDomain"
  | "scecIndexBounds"
  | "scecInvalidInput"
  | "scecMissingValue"
  | "scecExistingValue"
  | "scecExceededLimit"
  | "scecInvalidAction"
  | "scecInternalError"
  | "scecUnexpectedType"
  | "scecUnexpectedSize";

export type ScErrorTypeName =
  | "WasmVm"
  | "Context"
  | "Storage"
  | "Object"
  | "Crypto"
  | "Events"
  | "Budget"
  | "Value"
  | "Auth";

/** `Error(Contract, #4)`, `Error(Auth, InvalidAction)`, as the host prints them. */
export function describeScError(error: xdr.ScError): string {
  const type = TYPE_NAMES[error.type] ?? error.type;
  if (error.type === "sceContract") return `Error(Contract, #${error.contractCode})`;
  return `Error(${type}, ${error.code.name.replace(/^scec/, "")})`;
}

export class HostError extends Error {
  readonly error: xdr.ScError;
  constructor(error: xdr.ScError, message: string) {
    super(message);
    this.name = "HostError";
    this.error = error;
  }

  get description(): string {
    return describeScError(this.error);
  }
}

export function contractFailure(code: number, message: string): HostError {
  return new HostError(xdr.ScError.sceContract(code), message);
}

export function hostFailure(type: ScErrorTypeName, code: ScErrorCodeName, message: string): HostError {
  const scCode = xdr.ScErrorCode[code];
  const make: Record<ScErrorTypeName, (c: xdr.ScErrorCode) => xdr.ScError> = {
    WasmVm: (c) => xdr.ScError.sceWasmVm(c),
    Context: (c) => xdr.ScError.sceContext(c),
    Storage: (c) => xdr.ScError.sceStorage(c),
    Object: (c) => xdr.ScError.sceObject(c),
    Crypto: (c) => xdr.ScError.sceCrypto(c),
    Events: (c) => xdr.ScError.sceEvents(c),
    Budget: (c) => xdr.ScError.sceBudget(c),
    Value: (c) => xdr.ScError.sceValue(c),
    Auth: (c) => xdr.ScError.sceAuth(c),
  };
  return new HostError(make[type](scCode), message);
}
