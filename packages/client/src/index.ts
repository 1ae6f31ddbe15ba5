// Public API of @namereg/client.
export {
  type ApiErrorCode,
  type ClientErrorCode,
  createApi,
  isNameregError,
  type NameregApi,
  type NameregClientOptions,
  NameregError,
  type NameregErrorBody,
  type NameregErrorCode,
  type NameregPaths,
  type ResolveAnswer,
  resolve,
  type SubnameResolution,
  splitName,
  unwrap,
} from "./api.ts";
export { type BillingInstructions, payBilling } from "./billing.ts";
export { withdrawClaim } from "./claims.ts";
export { type ConsolePrepare, type ConsoleSession, consoleCall, consoleChange } from "./console-changes.ts";
export {
  CHANGE_TYPES,
  type ChangeEvent,
  type ChangeEventOf,
  type ChangeType,
  isChangeType,
} from "./events.ts";
export { type FederationOptions, type FederationPayment, resolveFederation } from "./federation.ts";
export { type FeePolicy, readFeePolicy } from "./fee-policy.ts";
export type { components, paths, webhooks } from "./generated/openapi.ts";
export { holderCall } from "./holder-calls.ts";
export {
  changeRecord,
  changeSubname,
  setChainAddress,
  setDisplayName,
  setNameAddress,
  setPaymentRecord,
  setPrimaryName,
  setTextRecord,
} from "./holder-changes.ts";
export {
  acceptTransfer,
  cancelTransferProposal,
  payBond,
  payDeposit,
  proposalCall,
  proposeTransfer,
  type ReviewedPayment,
} from "./market.ts";
export {
  type ChainResolution,
  type ResolveVerifiedOptions,
  resolveVerified,
  type VerifiedResolution,
} from "./resolve-verified.ts";
export { type SignInOptions, signIn } from "./sign-in.ts";
export {
  type AskedCall,
  type ContractKind,
  type Signer,
  type SignWith,
  type Submitted,
  submitSigned,
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
export {
  DEFAULT_MAX_PAYMENT_FEE_STROOPS,
  type PaymentExpectation,
  type VerifiedPayment,
  verifyPreparedPayment,
} from "./verify-payment.ts";
export {
  DEFAULT_MAX_FEE_STROOPS,
  DEFAULT_MAX_VALIDITY_SECONDS,
  type PreparedExpectation,
  type PreparedRejection,
  PreparedTransactionRejected,
  type VerifiedPrepared,
  verifyPrepared,
} from "./verify-prepared.ts";
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  type WebhookRejection,
  WebhookVerificationError,
} from "./verify-webhook.ts";
