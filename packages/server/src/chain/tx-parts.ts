// Parts of a Stellar transaction read the same way by the payment stream (chain/account-payments.ts) and the
// account's own transactions (chain/account-transactions.ts): its TOID, G accounts, asset names and memo.
import { type Asset, StrKey, type Transaction } from "@stellar/stellar-sdk";

export type MemoType = "none" | "text" | "id" | "hash" | "return";

const TX_SHIFT = 12n;

export function txToid(ledger: number, applicationOrder: number): string {
  return ((BigInt(ledger) << 32n) | (BigInt(applicationOrder) << TX_SHIFT)).toString().padStart(19, "0");
}

/** G account of a G or M address. */
export function baseAccount(address: string): string {
  if (StrKey.isValidMed25519PublicKey(address)) {
    return StrKey.encodeEd25519PublicKey(StrKey.decodeMed25519PublicKey(address).subarray(0, 32));
  }
  return address;
}

export function assetName(asset: Asset): string {
  return asset.isNative() ? "native" : `${asset.getCode()}:${asset.getIssuer()}`;
}

export function memoOf(tx: Transaction): { memoType: MemoType; memo: string | null } {
  const memo = tx.memo;
  switch (memo.type) {
    case "hash":
    case "return":
      return { memoType: memo.type, memo: Buffer.from(memo.value as Buffer).toString("hex") };
    case "text":
      return { memoType: "text", memo: Buffer.from(memo.value as Buffer | string).toString("utf8") };
    case "id":
      return { memoType: "id", memo: String(memo.value) };
    default:
      return { memoType: "none", memo: null };
  }
}
