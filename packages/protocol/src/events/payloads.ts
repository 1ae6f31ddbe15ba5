// Data structs several events share, and the registry's routing events.
import { address, hash32, label, option, struct, symbolEnum, u64 } from "../scval.ts";
import { NAME_ACTIONS, NAMESPACE_METHODS, SUBNAME_ACTIONS, TRANSFER_ACTIONS } from "../structs.ts";
import { def, node } from "./def.ts";

export const NamespaceAllocated = struct("NamespaceAllocated", {
  label,
  owner: address,
  resolver: option(address),
  method: symbolEnum(NAMESPACE_METHODS),
});
/**
 * The legacy allocation layout (topic `ns`, node only): registries from before the versioned events emitted no
 * label, so such a namespace is known by its hash until verified discovery data names it (docs/contracts.md "Rules the indexer relies on").
 */
export const LegacyNamespaceAllocated = struct("LegacyNamespaceAllocated", {
  owner: address,
  resolver: option(address),
  method: symbolEnum(NAMESPACE_METHODS),
});
export const NameChange = struct("NameChange", {
  label,
  action: symbolEnum(NAME_ACTIONS),
  holder: address,
  address,
  expiresAt: u64,
});
export const TransferChange = struct("TransferChange", {
  label,
  action: symbolEnum(TRANSFER_ACTIONS),
  holder: address,
  to: option(address),
  proposalExpires: option(u64),
  expiresAt: u64,
});
/** `parent` is the parent name's node, `child` the child label. */
export const SubnameChange = struct("SubnameChange", {
  parent: hash32,
  child: label,
  action: symbolEnum(SUBNAME_ACTIONS),
  address,
});

/** Routing events carry the new contract address, or void when it was removed (`set_resolver(None)`). */
export const routing = <const N extends string>(name: N) =>
  def("registry", name, [["node", node]], option(address));
