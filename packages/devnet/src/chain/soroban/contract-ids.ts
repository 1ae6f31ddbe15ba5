// Contract addresses as Soroban derives them, and the devnet's stand-in wasm hashes.
import { Address, hash, StrKey, xdr } from "@stellar/stellar-sdk";

export function networkIdOf(passphrase: string): Uint8Array {
  return hash(new TextEncoder().encode(passphrase));
}

export function scAddressOf(address: string): xdr.ScAddress {
  return new Address(address).toScAddress();
}

export function addressToString(address: xdr.ScAddress): string {
  return Address.fromScAddress(address).toString();
}

/** sha256(HashIdPreimage::ContractId{networkId, fromAddress{deployer, salt}}), as Soroban's deployer. */
export function deriveContractId(networkId: Uint8Array, deployer: string, salt: Uint8Array): string {
  const preimage = xdr.HashIdPreimage.envelopeTypeContractId(
    new xdr.HashIdPreimageContractId({
      networkId,
      contractIdPreimage: xdr.ContractIdPreimage.contractIdPreimageFromAddress(
        new xdr.ContractIdPreimageFromAddress({ address: scAddressOf(deployer), salt }),
      ),
    }),
  );
  return StrKey.encodeContract(hash(preimage.toXdr()));
}

/** The devnet has no wasm: each registered contract kind gets a fixed 32-byte stand-in hash. */
export function kindWasmHash(kind: string): Uint8Array {
  return hash(new TextEncoder().encode(`namereg-devnet-contract-kind:${kind}`));
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}
