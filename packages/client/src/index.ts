// Public API of @namereg/client.
export {
  createApi,
  type NameregApi,
  type NameregClientOptions,
  NameregError,
  type NameregPaths,
  type ResolveAnswer,
  resolve,
  splitName,
  unwrap,
} from "./api.ts";
export { type FeePolicy, readFeePolicy } from "./fee-policy.ts";
export type { components, paths } from "./generated/openapi.ts";
export { type ResolveVerifiedOptions, resolveVerified, type VerifiedResolution } from "./resolve-verified.ts";
export {
  type ConsoleSession,
  changeSubname,
  consoleChange,
  type Signer,
  type SignWith,
  setChainAddress,
} from "./transactions.ts";
export {
  type AnnounceRejection,
  type Evidence,
  type RefusedAnnounce,
  type VerifiedAnnounce,
  type VerifyAnnounceOptions,
  type VerifyAnnounceResult,
  verifyAnnounce,
} from "./verify-announce.ts";
