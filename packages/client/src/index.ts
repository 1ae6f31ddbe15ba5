// Public API of @namereg/client.
export { readFeePolicy } from "./fee-policy.ts";
export {
  type AnnounceRejection,
  type RefusedAnnounce,
  type VerifiedAnnounce,
  type VerifyAnnounceOptions,
  type VerifyAnnounceResult,
  verifyAnnounce,
} from "./verify-announce.ts";
