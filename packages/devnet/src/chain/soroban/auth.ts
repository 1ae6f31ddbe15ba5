// Soroban authorization: enforcing mode (source account, signed address credentials with single-use
// nonces), recording mode for simulation, and a privileged mode for genesis and scenario set-up.
import { hash, Keypair, StrKey, xdr } from "@stellar/stellar-sdk";
import { type EntryRecord, ledgerKeyId } from "../ledger-state.ts";
import { contractDataKey, contractDataRecord } from "./contract-data.ts";
import { addressToString, scAddressOf } from "./contract-ids.ts";
import { hostFailure } from "./host-error.ts";

/** One contract function call on the host's call stack, as auth sees it. */
export interface AuthFrame {
  readonly contractId: string;
  readonly fn: string;
  readonly args: readonly xdr.ScVal[];
  /** Recording mode: the invocation node recorded in this frame per address. */
  readonly recorded: Map<string, RecordedInvocation>;
}

/** What auth needs from the host: footprint-checked state access and the ledger context. */
export interface AuthHost {
  readonly ledgerSequence: number;
  readonly networkId: Uint8Array;
  readEntry(id: string, key: xdr.LedgerKey): EntryRecord | undefined;
  writeEntry(id: string, record: EntryRecord): void;
  meter(instructions: number): void;
}

export interface AuthPolicy {
  requireAuth(address: string, stack: readonly AuthFrame[], host: AuthHost): void;
}

export const SIGNATURE_VERIFY_INSTRUCTIONS = 400_000;

function unauthorized(address: string): Error {
  return hostFailure("Auth", "scecInvalidAction", `Unauthorized function call for address ${address}`);
}

function argsId(args: readonly xdr.ScVal[]): string {
  return xdr.ScVal.scvVec([...args]).toXdr("base64");
}

export function nonceKey(address: string, nonce: bigint): xdr.LedgerKey {
  return contractDataKey(address, xdr.ScVal.scvLedgerKeyNonce(new xdr.ScNonceKey({ nonce })), "temporary");
}

/** Genesis deployments and scenario set-up: every address is authorised. */
export class PrivilegedAuth implements AuthPolicy {
  requireAuth(): void {}
}

interface EnforcedNode {
  readonly contractId: string;
  readonly fn: string;
  readonly argsId: string;
  consumed: boolean;
}

interface EnforcedEntry {
  readonly address: string;
  readonly entry: xdr.SorobanAuthorizationEntry;
  readonly credentials: xdr.SorobanAddressCredentials;
  readonly withAddress: boolean;
  readonly nodes: EnforcedNode[];
  verified: boolean;
}

function flattenInvocation(invocation: xdr.SorobanAuthorizedInvocation, out: EnforcedNode[]): void {
  const fn = invocation.function;
  if (fn.type === "sorobanAuthorizedFunctionTypeContractFn") {
    out.push({
      contractId: addressToString(fn.contractFn.contractAddress),
      fn: fn.contractFn.functionName.toString(),
      argsId: argsId(fn.contractFn.args),
      consumed: false,
    });
  }
  for (const sub of invocation.subInvocations) flattenInvocation(sub, out);
}

/**
 * Enforcing mode. The transaction (or operation) source account is always authorised, with or without
 * a source-account credential entry; another address needs a matching, correctly signed entry.
 */
export class EnforcingAuth implements AuthPolicy {
  readonly #source: string;
  readonly #entries: EnforcedEntry[] = [];

  constructor(sourceAccount: string, entries: readonly xdr.SorobanAuthorizationEntry[]) {
    this.#source = sourceAccount;
    for (const entry of entries) {
      const creds = entry.credentials;
      let credentials: xdr.SorobanAddressCredentials;
      let withAddress = false;
      if (creds.type === "sorobanCredentialsAddress") credentials = creds.address;
      else if (creds.type === "sorobanCredentialsAddressV2") {
        credentials = creds.addressV2;
        withAddress = true;
      } else continue;
      const nodes: EnforcedNode[] = [];
      flattenInvocation(entry.rootInvocation, nodes);
      this.#entries.push({
        address: addressToString(credentials.address),
        entry,
        credentials,
        withAddress,
        nodes,
        verified: false,
      });
    }
  }

  requireAuth(address: string, stack: readonly AuthFrame[], host: AuthHost): void {
    if (address === this.#source) return;
    const frame = stack[stack.length - 1];
    if (frame === undefined) throw unauthorized(address);
    const frameArgs = argsId(frame.args);
    for (const candidate of this.#entries) {
      if (candidate.address !== address) continue;
      const node = candidate.nodes.find(
        (n) =>
          !n.consumed && n.contractId === frame.contractId && n.fn === frame.fn && n.argsId === frameArgs,
      );
      if (node === undefined) continue;
      if (!candidate.verified) {
        verifyAddressEntry(candidate, host);
        candidate.verified = true;
      }
      node.consumed = true;
      return;
    }
    throw unauthorized(address);
  }
}

function verifyAddressEntry(candidate: EnforcedEntry, host: AuthHost): void {
  const { address, credentials, entry } = candidate;
  if (!StrKey.isValidEd25519PublicKey(address)) {
    throw hostFailure("Auth", "scecInvalidAction", `custom account contracts are not supported: ${address}`);
  }
  if (credentials.signatureExpirationLedger < host.ledgerSequence) {
    throw hostFailure("Auth", "scecInvalidAction", "signature has expired");
  }
  const preimage = candidate.withAddress
    ? xdr.HashIdPreimage.envelopeTypeSorobanAuthorizationWithAddress(
        new xdr.HashIdPreimageSorobanAuthorizationWithAddress({
          networkId: host.networkId,
          nonce: credentials.nonce,
          signatureExpirationLedger: credentials.signatureExpirationLedger,
          address: credentials.address,
          invocation: entry.rootInvocation,
        }),
      )
    : xdr.HashIdPreimage.envelopeTypeSorobanAuthorization(
        new xdr.HashIdPreimageSorobanAuthorization({
          networkId: host.networkId,
          nonce: credentials.nonce,
          signatureExpirationLedger: credentials.signatureExpirationLedger,
          invocation: entry.rootInvocation,
        }),
      );
  const payload = hash(preimage.toXdr());
  host.meter(SIGNATURE_VERIFY_INSTRUCTIONS);
  if (!signatureMatches(credentials.signature, address, payload)) {
    throw hostFailure("Auth", "scecInvalidAction", "failed account authentication");
  }
  const key = nonceKey(address, credentials.nonce);
  const id = ledgerKeyId(key);
  if (host.readEntry(id, key) !== undefined) {
    throw hostFailure("Auth", "scecExistingValue", "nonce already exists for address");
  }
  host.writeEntry(
    id,
    contractDataRecord(
      address,
      xdr.ScVal.scvLedgerKeyNonce(new xdr.ScNonceKey({ nonce: credentials.nonce })),
      xdr.ScVal.scvVoid(),
      host.ledgerSequence,
      "temporary",
      credentials.signatureExpirationLedger,
    ),
  );
}

/** The account's master key must have signed: `vec[map{public_key, signature}]` as the SDK produces. */
function signatureMatches(signature: xdr.ScVal, address: string, payload: Uint8Array): boolean {
  if (signature.type !== "scvVec" || signature.vec === null) return false;
  const master = StrKey.decodeEd25519PublicKey(address);
  for (const item of signature.vec) {
    if (item.type !== "scvMap" || item.map === null) continue;
    let publicKey: Uint8Array | undefined;
    let sig: Uint8Array | undefined;
    for (const field of item.map) {
      if (field.key.type !== "scvSymbol" || field.val.type !== "scvBytes") continue;
      const name = field.key.sym.toString();
      if (name === "public_key") publicKey = field.val.bytes.value;
      else if (name === "signature") sig = field.val.bytes.value;
    }
    if (publicKey === undefined || sig === undefined) continue;
    if (Buffer.compare(Buffer.from(publicKey), Buffer.from(master)) !== 0) continue;
    if (Keypair.fromPublicKey(address).verify(payload, sig)) return true;
  }
  return false;
}

export interface RecordedInvocation {
  readonly contractId: string;
  readonly fn: string;
  readonly args: readonly xdr.ScVal[];
  readonly children: RecordedInvocation[];
}

interface RecordedEntry {
  readonly address: string;
  readonly sourceAccount: boolean;
  readonly nonce: bigint;
  readonly root: RecordedInvocation;
}

function randomNonce(): bigint {
  return Buffer.from(Keypair.random().rawPublicKey()).readBigInt64BE(0);
}

/**
 * Recording mode (simulation): each `requireAuth` becomes an entry whose root is the call it ran in,
 * or a sub-invocation of the nearest enclosing call that already recorded the same address.
 */
export class RecordingAuth implements AuthPolicy {
  readonly #source: string;
  readonly #entries: RecordedEntry[] = [];

  constructor(sourceAccount: string) {
    this.#source = sourceAccount;
  }

  requireAuth(address: string, stack: readonly AuthFrame[], host: AuthHost): void {
    const frame = stack[stack.length - 1];
    if (frame === undefined || frame.recorded.has(address)) return;
    const node: RecordedInvocation = {
      contractId: frame.contractId,
      fn: frame.fn,
      args: frame.args,
      children: [],
    };
    for (let i = stack.length - 2; i >= 0; i--) {
      const parent = stack[i]?.recorded.get(address);
      if (parent !== undefined) {
        parent.children.push(node);
        frame.recorded.set(address, node);
        return;
      }
    }
    frame.recorded.set(address, node);
    const sourceAccount = address === this.#source;
    const nonce = sourceAccount ? 0n : randomNonce();
    if (!sourceAccount) {
      // The nonce entry is written when the signed entry is applied, so it belongs to the footprint.
      const key = nonceKey(address, nonce);
      host.readEntry(ledgerKeyId(key), key);
      host.writeEntry(
        ledgerKeyId(key),
        contractDataRecord(
          address,
          xdr.ScVal.scvLedgerKeyNonce(new xdr.ScNonceKey({ nonce })),
          xdr.ScVal.scvVoid(),
          host.ledgerSequence,
          "temporary",
        ),
      );
      host.meter(SIGNATURE_VERIFY_INSTRUCTIONS);
    }
    this.#entries.push({ address, sourceAccount, nonce, root: node });
  }

  entries(): xdr.SorobanAuthorizationEntry[] {
    return this.#entries.map(
      (e) =>
        new xdr.SorobanAuthorizationEntry({
          credentials: e.sourceAccount
            ? xdr.SorobanCredentials.sorobanCredentialsSourceAccount()
            : xdr.SorobanCredentials.sorobanCredentialsAddress(
                new xdr.SorobanAddressCredentials({
                  address: scAddressOf(e.address),
                  nonce: e.nonce,
                  signatureExpirationLedger: 0,
                  signature: xdr.ScVal.scvVoid(),
                }),
              ),
          rootInvocation: toAuthorizedInvocation(e.root),
        }),
    );
  }
}

function toAuthorizedInvocation(node: RecordedInvocation): xdr.SorobanAuthorizedInvocation {
  return new xdr.SorobanAuthorizedInvocation({
    function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(
      new xdr.InvokeContractArgs({
        contractAddress: scAddressOf(node.contractId),
        functionName: node.fn,
        args: [...node.args],
      }),
    ),
    subInvocations: node.children.map(toAuthorizedInvocation),
  });
}
