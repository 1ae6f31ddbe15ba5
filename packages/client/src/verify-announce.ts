// Client-side verification of a prepared claim announcement (docs/claims.md, step 3): before a wallet signs the
// transaction the service prepared, it re-reads the allocator's fee policy from its own RPC and checks that the
// envelope does exactly what the claimant reviewed — one `announce` on the allocator the wallet trusts, the
// claimant signing for itself, the reviewed label, basis and evidence, the on-chain fee in the native asset, and
// a network fee under the wallet's ceiling. The service's quote alone is never enough: a mirror that is wrong
// (or lies) must not be able to make a wallet pay a different fee, to a different recipient, for another label.
import { AllocatorFns, i128, type Evidence as ProtocolEvidence } from "@namereg/protocol";
import { Address, Asset, FeeBumpTransaction, rpc, TransactionBuilder, type xdr } from "@stellar/stellar-sdk";
import { NameregError } from "./api.ts";
import { type FeePolicy, readFeePolicy } from "./fee-policy.ts";

/** One piece of evidence a claim cites, as the claimant reviewed it. */
export interface Evidence {
  readonly label: string;
  readonly url: string;
}
// Written out because the published declarations cannot name @namereg/protocol; fails to compile if they differ.
const _sameAsProtocol: [Evidence, ProtocolEvidence] = [{} as ProtocolEvidence, {} as Evidence];
void _sameAsProtocol;

export interface VerifyAnnounceOptions {
  /** The wallet's own RPC: the policy is read here, not from the service. */
  readonly rpcUrl: string;
  /** The allocator the wallet is configured to trust (a `C…` contract ID from its own configuration). */
  readonly allocatorId: string;
  readonly label: string;
  readonly basis: readonly string[];
  readonly evidence?: readonly Evidence[];
  /** Highest total network fee (inclusion + resources) the wallet accepts, in stroops. */
  readonly maxFeeStroops: bigint | number | string;
  /** The account expected to sign; defaults to the transaction's source (whoever signs must be the claimant). */
  readonly claimant?: string;
  /** When given, must equal the RPC's network passphrase (a transaction for another network is refused). */
  readonly networkPassphrase?: string;
  /** Allow a plain-HTTP RPC (local development only). */
  readonly allowHttp?: boolean;
}

/** Why a prepared announcement was refused; each is a distinct thing a user may need to be told. */
export type AnnounceRejection =
  | "malformed_transaction"
  | "network_mismatch"
  | "not_allocator"
  | "not_announce"
  | "claimant_mismatch"
  | "label_mismatch"
  | "basis_mismatch"
  | "evidence_mismatch"
  | "fee_policy_unconfigured"
  | "fee_token_not_native"
  | "fee_mismatch"
  | "unexpected_authorization"
  | "network_fee_too_high"
  | "chain_unavailable";

export interface VerifiedAnnounce {
  readonly ok: true;
  readonly claimant: string;
  readonly label: string;
  /** The fee the transaction pays, equal to the on-chain policy at verification time (base units). */
  readonly fee: { readonly token: string; readonly amount: string; readonly recipient: string };
  readonly networkFeeStroops: string;
  readonly networkPassphrase: string;
}

export interface RefusedAnnounce {
  readonly ok: false;
  readonly reason: AnnounceRejection;
  readonly detail: string;
}

export type VerifyAnnounceResult = VerifiedAnnounce | RefusedAnnounce;

class Refusal extends Error {
  readonly reason: AnnounceRejection;
  constructor(reason: AnnounceRejection, detail: string) {
    super(detail);
    this.reason = reason;
  }
}

function refuse(reason: AnnounceRejection, detail: string): never {
  throw new Refusal(reason, detail);
}

/** Verifies an unsigned (or signed) announce transaction; never throws for a bad transaction, it refuses. */
export async function verifyAnnounce(
  transactionXdr: string,
  opts: VerifyAnnounceOptions,
): Promise<VerifyAnnounceResult> {
  try {
    return await check(transactionXdr, opts);
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, reason: err.reason, detail: err.message };
    throw err;
  }
}

async function check(transactionXdr: string, opts: VerifyAnnounceOptions): Promise<VerifiedAnnounce> {
  const server = new rpc.Server(opts.rpcUrl, {
    allowHttp: opts.allowHttp ?? opts.rpcUrl.startsWith("http://"),
  });
  let networkPassphrase: string;
  try {
    networkPassphrase = (await server.getNetwork()).passphrase;
  } catch (err) {
    refuse("chain_unavailable", `getNetwork failed: ${message(err)}`);
  }
  if (opts.networkPassphrase !== undefined && opts.networkPassphrase !== networkPassphrase) {
    refuse("network_mismatch", `the RPC serves "${networkPassphrase}", not "${opts.networkPassphrase}"`);
  }

  const call = parseInvocation(transactionXdr, networkPassphrase);
  if (call.contractId !== opts.allocatorId) {
    refuse(
      "not_allocator",
      `the transaction calls ${call.contractId}, not the allocator ${opts.allocatorId}`,
    );
  }
  if (call.fn !== AllocatorFns.announce.name) refuse("not_announce", `the transaction calls ${call.fn}`);
  let args: ReturnType<typeof AllocatorFns.announce.decodeArgs>;
  try {
    args = AllocatorFns.announce.decodeArgs(call.args);
  } catch (err) {
    refuse("malformed_transaction", `announce arguments: ${message(err)}`);
  }

  const signer = opts.claimant ?? call.source;
  if (args.claimant !== call.source || args.claimant !== signer) {
    refuse(
      "claimant_mismatch",
      `claimant ${args.claimant}, transaction source ${call.source}, expected ${signer}`,
    );
  }
  if (args.label !== opts.label) refuse("label_mismatch", `label "${args.label}", reviewed "${opts.label}"`);
  if (!sameList(args.basis, opts.basis)) {
    refuse("basis_mismatch", `basis ${JSON.stringify(args.basis)}, reviewed ${JSON.stringify(opts.basis)}`);
  }
  const evidence = opts.evidence ?? [];
  if (!sameList(args.evidence.map(evidenceKey), evidence.map(evidenceKey))) {
    refuse("evidence_mismatch", "the evidence differs from what was reviewed");
  }

  let policy: FeePolicy | null;
  try {
    policy = await readFeePolicy(server, networkPassphrase, opts.allocatorId);
  } catch (err) {
    refuse("chain_unavailable", err instanceof NameregError ? (err.detail ?? err.code) : message(err));
  }
  if (policy === null) refuse("fee_policy_unconfigured", "the allocator has no claim-fee policy");
  const nativeToken = Asset.native().contractId(networkPassphrase);
  if (policy.token !== nativeToken) {
    refuse(
      "fee_token_not_native",
      `the policy's token ${policy.token} is not the native asset (${nativeToken})`,
    );
  }
  if (
    args.fee.token !== policy.token ||
    args.fee.amount !== policy.amount ||
    args.fee.recipient !== policy.recipient
  ) {
    refuse(
      "fee_mismatch",
      `the transaction pays ${args.fee.amount} of ${args.fee.token} to ${args.fee.recipient}; the chain's policy is ` +
        `${policy.amount} of ${policy.token} to ${policy.recipient}`,
    );
  }
  checkAuthorization(call, args.claimant, opts.allocatorId, nativeToken, policy.amount);

  const ceiling = BigInt(opts.maxFeeStroops);
  if (BigInt(call.fee) > ceiling) {
    refuse("network_fee_too_high", `network fee ${call.fee} stroops exceeds the ceiling ${ceiling}`);
  }
  return {
    ok: true,
    claimant: args.claimant,
    label: args.label,
    fee: { token: policy.token, amount: policy.amount.toString(), recipient: policy.recipient },
    networkFeeStroops: call.fee,
    networkPassphrase,
  };
}

interface Invocation {
  readonly source: string;
  readonly fee: string;
  readonly contractId: string;
  readonly fn: string;
  readonly args: xdr.ScVal[];
  readonly auth: xdr.SorobanAuthorizationEntry[];
}

/** The single contract call of the envelope; anything else (fee bumps, extra operations) is refused. */
function parseInvocation(transactionXdr: string, networkPassphrase: string): Invocation {
  let tx: ReturnType<typeof TransactionBuilder.fromXDR>;
  try {
    tx = TransactionBuilder.fromXDR(transactionXdr, networkPassphrase);
  } catch (err) {
    refuse("malformed_transaction", `not a transaction envelope: ${message(err)}`);
  }
  if (tx instanceof FeeBumpTransaction)
    refuse("malformed_transaction", "a fee-bump envelope is not accepted");
  const [op, ...rest] = tx.operations;
  if (op === undefined || rest.length > 0) {
    refuse("malformed_transaction", `expected exactly one operation, found ${tx.operations.length}`);
  }
  if (op.type !== "invokeHostFunction") refuse("not_announce", `the operation is ${op.type}`);
  if (op.source !== undefined && op.source !== tx.source) {
    refuse("claimant_mismatch", `the operation's source ${op.source} is not the transaction's ${tx.source}`);
  }
  if (op.func.type !== "hostFunctionTypeInvokeContract") {
    refuse("not_announce", "the operation does not invoke a contract function");
  }
  const invoke = op.func.invokeContract;
  return {
    source: tx.source,
    fee: tx.fee,
    contractId: Address.fromScAddress(invoke.contractAddress).toString(),
    fn: invoke.functionName.toString(),
    args: [...invoke.args],
    auth: [...(op.auth ?? [])],
  };
}

/**
 * Every authorisation in the envelope must be the claimant's, for this very `announce` call, and may authorise
 * nothing beneath it but the native-token transfer of exactly the policy's amount from the claimant to the
 * allocator: a wallet signing the envelope signs these entries too, so a hidden extra transfer would be paid.
 */
function checkAuthorization(
  call: Invocation,
  claimant: string,
  allocatorId: string,
  nativeToken: string,
  amount: bigint,
): void {
  const expectedArgs = call.args.map((a) => a.toXDR("base64"));
  for (const entry of call.auth) {
    const credentials = entry.credentials;
    const signer =
      credentials.type === "sorobanCredentialsAddress"
        ? credentials.address.address
        : credentials.type === "sorobanCredentialsAddressV2"
          ? credentials.addressV2.address
          : null; // source-account credentials: the envelope's signer, already checked to be the claimant
    if (signer !== null && Address.fromScAddress(signer).toString() !== claimant) {
      refuse("unexpected_authorization", "the envelope carries an authorisation by another account");
    }
    const root = entry.rootInvocation;
    const rootCall = contractCall(root);
    if (
      rootCall === null ||
      rootCall.contractId !== allocatorId ||
      rootCall.fn !== AllocatorFns.announce.name ||
      !sameList(rootCall.args, expectedArgs)
    ) {
      refuse("unexpected_authorization", "an authorisation is not for this announce call");
    }
    if (root.subInvocations.length > 1) {
      refuse("unexpected_authorization", "the announce authorises more than one transfer");
    }
    for (const sub of root.subInvocations) {
      const transfer = contractCall(sub);
      const expected = [new Address(claimant), new Address(allocatorId)].map((a) =>
        a.toScVal().toXDR("base64"),
      );
      expected.push(i128.encode(amount).toXDR("base64"));
      if (
        transfer === null ||
        transfer.contractId !== nativeToken ||
        transfer.fn !== "transfer" ||
        !sameList(transfer.args, expected) ||
        sub.subInvocations.length > 0
      ) {
        refuse(
          "unexpected_authorization",
          "the announce authorises more than the fee transfer to the allocator",
        );
      }
    }
  }
}

function contractCall(
  invocation: xdr.SorobanAuthorizedInvocation,
): { contractId: string; fn: string; args: string[] } | null {
  const fn = invocation.function;
  if (fn.type !== "sorobanAuthorizedFunctionTypeContractFn") return null;
  const c = fn.contractFn;
  return {
    contractId: Address.fromScAddress(c.contractAddress).toString(),
    fn: c.functionName.toString(),
    args: c.args.map((a) => a.toXDR("base64")),
  };
}

function evidenceKey(e: Evidence): string {
  return JSON.stringify([e.label, e.url]);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
