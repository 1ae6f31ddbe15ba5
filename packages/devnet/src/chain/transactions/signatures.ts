// Ed25519 signature checks of an envelope's decorated signatures against account master keys.
import { Keypair, StrKey, type xdr } from "@stellar/stellar-sdk";

/** Indexes of the signatures made by `accountId`'s master key over `hash`. */
export function signaturesBy(
  hash: Uint8Array,
  signatures: readonly xdr.DecoratedSignature[],
  accountId: string,
): number[] {
  const raw = StrKey.decodeEd25519PublicKey(accountId);
  const hint = raw.subarray(raw.length - 4);
  const keypair = Keypair.fromPublicKey(accountId);
  const used: number[] = [];
  signatures.forEach((sig, index) => {
    if (Buffer.compare(Buffer.from(sig.hint.value), Buffer.from(hint)) !== 0) return;
    if (keypair.verify(hash, sig.signature.value)) used.push(index);
  });
  return used;
}
