// The structs of docs/contracts.md, each as one codec. These are the only place their ScVal layouts are written.
import {
  address,
  bool,
  type CodecValue,
  hash32,
  i128,
  label,
  option,
  storedLabel,
  string,
  struct,
  symbol,
  symbolEnum,
  u64,
  vec,
} from "./scval.ts";

export const NAMESPACE_METHODS = ["allocate", "reserved"] as const;
export const NAME_ACTIONS = ["issue", "reclaim", "transfer", "renew", "address"] as const;
export const TRANSFER_ACTIONS = ["propose", "cancel"] as const;
export const SUBNAME_ACTIONS = ["create", "remove"] as const;
/** On-chain symbols; HTTP shows `creation_disabled` as `creation-disabled`. */
export const SUBNAME_POLICIES = ["enabled", "creation_disabled", "suspended"] as const;
export const CLAIM_STATES = ["announced", "objected", "awarded", "withdrawn", "rejected", "expired"] as const;
export const FEE_OUTCOMES = ["Held", "Awarded", "Rejected", "Withdrawn", "Expired", "Stuck"] as const;

export type NamespaceMethod = (typeof NAMESPACE_METHODS)[number];
export type NameAction = (typeof NAME_ACTIONS)[number];
export type SubnamePolicyValue = (typeof SUBNAME_POLICIES)[number];
export type ClaimState = (typeof CLAIM_STATES)[number];
export type FeeOutcome = (typeof FEE_OUTCOMES)[number];

/** Refund share of the claim fee per receipt outcome (docs/contracts.md "Allocator"). */
export const REFUND_BPS: Readonly<Record<FeeOutcome, number>> = Object.freeze({
  Held: 0,
  Awarded: 0,
  Rejected: 10_000,
  Stuck: 10_000,
  Withdrawn: 8_000,
  Expired: 8_000,
});

export const subnamePolicyToHttp = (p: SubnamePolicyValue): string => p.replace("_", "-");
export function subnamePolicyFromHttp(p: string): SubnamePolicyValue | null {
  const onChain = p.replace("-", "_");
  return (SUBNAME_POLICIES as readonly string[]).includes(onChain) && !p.includes("_")
    ? (onChain as SubnamePolicyValue)
    : null;
}

export const Namespace = struct("Namespace", {
  label: storedLabel,
  owner: address,
  registrar: address,
  resolver: option(address),
  locked: bool,
  allocatedLedger: u64,
  method: symbolEnum(NAMESPACE_METHODS),
});
export type Namespace = CodecValue<typeof Namespace>;

export const NamespaceTransfer = struct("NamespaceTransfer", { to: address, expires: u64 });
export type NamespaceTransfer = CodecValue<typeof NamespaceTransfer>;

export const Name = struct("Name", {
  holder: address,
  address,
  expiresAt: u64,
  generation: u64,
  issuedLedger: u64,
  active: bool,
});
export type Name = CodecValue<typeof Name>;

export const SubnamePolicy = struct("SubnamePolicy", {
  policy: symbolEnum(SUBNAME_POLICIES),
  owner: address,
});
export type SubnamePolicy = CodecValue<typeof SubnamePolicy>;

export const Child = struct("Child", { exists: bool, parentGeneration: u64, generation: u64, address });
export type Child = CodecValue<typeof Child>;

export const Payment = struct("Payment", { address, memo: option(string) });
export type Payment = CodecValue<typeof Payment>;

export const Resolution = struct("Resolution", {
  holder: address,
  address,
  memo: option(string),
  expiresAt: u64,
  node: hash32,
});
export type Resolution = CodecValue<typeof Resolution>;

export const Evidence = struct("Evidence", { label: string, url: string });
export type Evidence = CodecValue<typeof Evidence>;

export const Claim = struct("Claim", {
  id: u64,
  label,
  claimant: address,
  basis: vec(symbol),
  evidence: vec(Evidence),
  state: symbolEnum(CLAIM_STATES),
  announcedLedger: u64,
  deadline: u64,
  response: option(string),
  awardedAt: option(u64),
});
export type Claim = CodecValue<typeof Claim>;

export const FeeQuote = struct("FeeQuote", { token: address, amount: i128, recipient: address });
export type FeeQuote = CodecValue<typeof FeeQuote>;

/** Same layout as a quote: the policy is what a quote must equal. */
export const FeePolicy = FeeQuote;
export type FeePolicy = FeeQuote;

export const Receipt = struct("Receipt", {
  claimant: address,
  amount: i128,
  outcome: symbolEnum(FEE_OUTCOMES),
  refundAmount: i128,
  treasuryAmount: i128,
});
export type Receipt = CodecValue<typeof Receipt>;
