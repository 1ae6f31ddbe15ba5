// Registered contract kinds and their stand-in wasm hashes.
import type { Contract } from "../../host/contract.ts";
import { kindWasmHash, toHex } from "./contract-ids.ts";

export class KindRegistry {
  readonly #byKind = new Map<string, Contract>();
  readonly #kindByHash = new Map<string, string>();

  register(contract: Contract): Uint8Array {
    const existing = this.#byKind.get(contract.kind);
    if (existing !== undefined && existing !== contract) {
      throw new Error(`contract kind ${contract.kind} is already registered`);
    }
    const wasmHash = kindWasmHash(contract.kind);
    this.#byKind.set(contract.kind, contract);
    this.#kindByHash.set(toHex(wasmHash), contract.kind);
    return wasmHash;
  }

  get(kind: string): Contract | undefined {
    return this.#byKind.get(kind);
  }

  kindOfHash(wasmHash: Uint8Array): string | undefined {
    return this.#kindByHash.get(toHex(wasmHash));
  }

  wasmHashOf(kind: string): Uint8Array {
    if (!this.#byKind.has(kind)) throw new Error(`unknown contract kind ${kind}`);
    return kindWasmHash(kind);
  }

  kinds(): string[] {
    return [...this.#byKind.keys()];
  }
}
