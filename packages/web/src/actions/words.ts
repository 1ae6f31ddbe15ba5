// Words for what a transaction does, for the review before signing: the network by name, the fee in XLM, when it
// stops being valid. Pure functions (actions/words.test.ts).
import { baseUnitsAmount } from "../format.ts";

const NETWORKS: Readonly<Record<string, string>> = {
  "Public Global Stellar Network ; September 2015": "the Stellar public network (real money)",
  "Test SDF Network ; September 2015": "the Stellar testnet",
  "Test SDF Future Network ; October 2022": "the Stellar futurenet",
};

/** A network passphrase as a person knows the network. */
export function networkInWords(passphrase: string): string {
  return NETWORKS[passphrase] ?? `a local network (“${passphrase}”)`;
}

/** A fee in stroops as XLM (7 decimals): 100 → "0.00001 XLM". */
export function feeInXlm(stroops: bigint): string {
  return baseUnitsAmount(stroops);
}

/** A transaction's upper time bound (unix seconds) as an ISO 8601 time in UTC, without milliseconds. */
export function validUntil(maxTime: string | bigint): string {
  return new Date(Number(maxTime) * 1000).toISOString().replace(".000Z", "Z");
}

/** What each subname policy (docs/api.md, its HTTP spelling) means for the namespace's names. */
export const POLICY_WORDS: Readonly<Record<string, string>> = {
  enabled: "holders may create and remove subnames of their names",
  "creation-disabled": "no new subnames; existing ones keep resolving",
  suspended: "no subname of this namespace resolves, and none can be created",
};

/** The networks a name may carry an address on (docs/api.md: ethereum, bitcoin, solana). */
export const CHAIN_NETWORKS = ["ethereum", "bitcoin", "solana"] as const;
