// Name hashing of docs/contracts.md "Names and nodes": labelhash = sha256(utf8(label)); node(namespace) = sha256(zero32 ‖ labelhash);
// each further level hashes the parent node with the child's labelhash. Nodes are shown as 64 lower-case hex.
import { toHex as bytesToHex, fromHex as hexToBytes } from "@exodus/bytes/hex.js";
import { sha256 as portableSha256 } from "@noble/hashes/sha2.js";
import { isValidLabel, type ParsedName, parseName } from "./labels.ts";

// Node's native SHA-256 where there is one: the indexer checks every name event's node (two hashes each), and
// one-shot `crypto.hash` takes about a third less CPU than the portable one on such short inputs (2.4–3.3 against
// 3.8–5.0 µs for the two). `getBuiltinModule` is synchronous and no import statement, so browser bundles never
// see `node:crypto` and keep @noble/hashes.
type NodeCrypto = typeof import("node:crypto");
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;
const sha256: (data: Uint8Array) => Uint8Array =
  nodeCrypto === undefined ? portableSha256 : (data) => nodeCrypto.hash("sha256", data, "buffer");

const ZERO32 = new Uint8Array(32);
const encoder = new TextEncoder();

function assertLabel(label: string): void {
  if (!isValidLabel(label)) throw new RangeError(`invalid label: ${JSON.stringify(label)}`);
}

export function toHex(bytes: Uint8Array): string {
  return bytesToHex(bytes);
}

export function fromHex(hex: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/.test(hex)) throw new RangeError("expected lower-case hex");
  return hexToBytes(hex);
}

export function labelhash(label: string): Uint8Array {
  assertLabel(label);
  return sha256(encoder.encode(label));
}

function childNodeBytes(parent: Uint8Array, label: string): Uint8Array {
  const buf = new Uint8Array(64);
  buf.set(parent, 0);
  buf.set(labelhash(label), 32);
  return sha256(buf);
}

export function namespaceNodeBytes(namespace: string): Uint8Array {
  return childNodeBytes(ZERO32, namespace);
}

export function nameNodeBytes(label: string, namespace: string): Uint8Array {
  return childNodeBytes(namespaceNodeBytes(namespace), label);
}

export function subnameNodeBytes(child: string, label: string, namespace: string): Uint8Array {
  return childNodeBytes(nameNodeBytes(label, namespace), child);
}

export const namespaceNode = (namespace: string): string => toHex(namespaceNodeBytes(namespace));
export const nameNode = (label: string, namespace: string): string => toHex(nameNodeBytes(label, namespace));
export const subnameNode = (child: string, label: string, namespace: string): string =>
  toHex(subnameNodeBytes(child, label, namespace));

/** Node of `label` directly under the node `parent` (64 hex): what a contract knowing only its parent computes. */
export function childNode(parent: string, label: string): string {
  if (parent.length !== 64) throw new RangeError("a parent node is 64 hex characters");
  return toHex(childNodeBytes(fromHex(parent), label));
}

/** Node of a parsed name at any depth. */
export function nodeOf(parsed: ParsedName): string {
  switch (parsed.kind) {
    case "namespace":
      return namespaceNode(parsed.namespace);
    case "name":
      return nameNode(parsed.label, parsed.namespace);
    case "subname":
      return subnameNode(parsed.child, parsed.label, parsed.namespace);
  }
}

/** Node of a full name string (`ns`, `label.ns`, `child.label.ns`). */
export function namehash(full: string): string {
  const parsed = parseName(full);
  if (parsed === null) throw new RangeError(`invalid name: ${JSON.stringify(full)}`);
  return nodeOf(parsed);
}

/** Key of a namespace's claim-fee receipt: labelhash of the namespace label (docs/contracts.md "Rules the indexer relies on"), not its node. */
export const claimFeeKey = (namespaceLabel: string): string => toHex(labelhash(namespaceLabel));
