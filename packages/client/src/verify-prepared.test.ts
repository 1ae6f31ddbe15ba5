// verifyPrepared against envelopes built here with the SDK, as the service builds them: the right one passes, and
// each way a prepared transaction can differ from what was asked (another network, an extra operation, another
// function, other arguments, another source, an authorisation beyond the call, a fee over the bound, no upper time
// bound or one too far off) is refused with its own reason before anything could be signed.
import { randomBytes } from "node:crypto";
import { RegistrarFns } from "@namereg/protocol";
import {
  Account,
  Address,
  Asset,
  Keypair,
  Networks,
  Operation,
  StrKey,
  TransactionBuilder,
  xdr,
} from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { NameregError } from "./api.ts";
import { type PreparedExpectation, PreparedTransactionRejected, verifyPrepared } from "./verify-prepared.ts";

const PASSPHRASE = Networks.STANDALONE;
const holder = Keypair.random().publicKey();
const registrar = StrKey.encodeContract(randomBytes(32));
const token = StrKey.encodeContract(randomBytes(32));
const asked = {
  label: "alice",
  child: "wallet",
  parentGeneration: 1n,
  generation: null,
  address: holder,
} as const;
const ARGS = RegistrarFns.create_subname.encodeArgs(asked);

/** The source's own authorisation of a call, with optional calls under it. */
function authFor(
  contract: string,
  fn: string,
  args: xdr.ScVal[],
  sub: xdr.SorobanAuthorizedInvocation[] = [],
): xdr.SorobanAuthorizationEntry {
  return new xdr.SorobanAuthorizationEntry({
    credentials: xdr.SorobanCredentials.sorobanCredentialsSourceAccount(),
    rootInvocation: new xdr.SorobanAuthorizedInvocation({
      function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(
        new xdr.InvokeContractArgs({
          contractAddress: new Address(contract).toScAddress(),
          functionName: fn,
          args,
        }),
      ),
      subInvocations: sub,
    }),
  });
}

interface Build {
  network?: string;
  source?: string;
  fn?: string;
  args?: xdr.ScVal[];
  fee?: string;
  extraPayment?: boolean;
  auth?: xdr.SorobanAuthorizationEntry[];
  /** Seconds the transaction stays valid (0: no upper bound). */
  timeout?: number;
}

function prepared(build: Build = {}): string {
  const fn = build.fn ?? "create_subname";
  const args = build.args ?? ARGS;
  const builder = new TransactionBuilder(new Account(build.source ?? holder, "41"), {
    fee: build.fee ?? "250000",
    networkPassphrase: build.network ?? PASSPHRASE,
  }).addOperation(
    Operation.invokeContractFunction({
      contract: registrar,
      function: fn,
      args,
      auth: build.auth ?? [authFor(registrar, fn, args)],
    }),
  );
  if (build.extraPayment) {
    builder.addOperation(
      Operation.payment({ destination: Keypair.random().publicKey(), asset: Asset.native(), amount: "100" }),
    );
  }
  return builder
    .setTimeout(build.timeout ?? 900)
    .build()
    .toXDR();
}

const expectation: PreparedExpectation = {
  networkPassphrase: PASSPHRASE,
  source: holder,
  contractId: registrar,
  function: "create_subname",
  args: ARGS,
  maxFeeStroops: 1_000_000,
};

function refusal(run: () => unknown): { reason: string; code: string; status: number } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PreparedTransactionRejected);
    expect(error).toBeInstanceOf(NameregError);
    const { reason, code, status } = error as PreparedTransactionRejected;
    return { reason, code, status };
  }
  throw new Error("verifyPrepared accepted it");
}

describe("verifyPrepared", () => {
  it("accepts the transaction that does exactly what was asked", () => {
    const xdrText = prepared();
    const verified = verifyPrepared({ xdr: xdrText, network: PASSPHRASE }, expectation);
    expect(verified.feeStroops).toBe(250_000n);
    expect(verified.transaction.source).toBe(holder);
    expect(verifyPrepared(xdrText, expectation).feeStroops).toBe(250_000n);
  });

  it("refuses a transaction prepared for another network", () => {
    expect(
      refusal(() => verifyPrepared({ xdr: prepared(), network: Networks.TESTNET }, expectation)),
    ).toEqual({ reason: "network_mismatch", code: "prepared_transaction_rejected", status: 0 });
  });

  it("refuses an extra operation", () => {
    expect(refusal(() => verifyPrepared(prepared({ extraPayment: true }), expectation)).reason).toBe(
      "unexpected_operations",
    );
  });

  it("refuses another function", () => {
    const args = RegistrarFns.remove_subname.encodeArgs({ ...asked, generation: 1n });
    expect(refusal(() => verifyPrepared(prepared({ fn: "remove_subname", args }), expectation)).reason).toBe(
      "function_mismatch",
    );
  });

  it("refuses changed arguments", () => {
    const args = RegistrarFns.create_subname.encodeArgs({ ...asked, address: Keypair.random().publicKey() });
    expect(refusal(() => verifyPrepared(prepared({ args }), expectation)).reason).toBe("arguments_mismatch");
  });

  it("refuses another source", () => {
    const other = Keypair.random().publicKey();
    expect(refusal(() => verifyPrepared(prepared({ source: other }), expectation)).reason).toBe(
      "source_mismatch",
    );
  });

  it("refuses an authorisation beyond the call: a nested transfer, or a second entry", () => {
    const transfer = new xdr.SorobanAuthorizedInvocation({
      function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(
        new xdr.InvokeContractArgs({
          contractAddress: new Address(token).toScAddress(),
          functionName: "transfer",
          args: [],
        }),
      ),
      subInvocations: [],
    });
    const nested = [authFor(registrar, "create_subname", ARGS, [transfer])];
    expect(refusal(() => verifyPrepared(prepared({ auth: nested }), expectation)).reason).toBe(
      "unexpected_authorization",
    );
    const two = [authFor(registrar, "create_subname", ARGS), authFor(token, "transfer", [])];
    expect(refusal(() => verifyPrepared(prepared({ auth: two }), expectation)).reason).toBe(
      "unexpected_authorization",
    );
  });

  it("refuses a fee over the bound, and what is not a transaction", () => {
    expect(refusal(() => verifyPrepared(prepared({ fee: "5000000" }), expectation)).reason).toBe(
      "fee_too_high",
    );
    expect(refusal(() => verifyPrepared("not xdr", expectation)).reason).toBe("malformed_transaction");
  });

  it("refuses a transaction that never expires, or stays valid longer than the bound", () => {
    expect(refusal(() => verifyPrepared(prepared({ timeout: 0 }), expectation)).reason).toBe(
      "validity_too_long",
    );
    expect(refusal(() => verifyPrepared(prepared({ timeout: 86_400 }), expectation)).reason).toBe(
      "validity_too_long",
    );
    const week = 7 * 86_400;
    const longer = verifyPrepared(prepared({ timeout: 86_400 }), {
      ...expectation,
      maxValiditySeconds: week,
    });
    expect(longer.feeStroops).toBe(250_000n);
  });
});
