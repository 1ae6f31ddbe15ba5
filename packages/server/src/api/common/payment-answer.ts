// The answer of every payment prepare route (a buyer's deposit, a seller's bond, a billing period; docs/api.md
// "Marketplace", "Wallet sessions and the owner console"): the unsigned envelope and, in the words of the
// instructions the service already gave (`to`, `amountXlm`, `memoHash`), what it pays — so a wallet can show the
// user the payment and check the envelope against it before signing.
import { stroopsToXlm } from "@namereg/protocol";
import { z } from "zod";
import type { PreparedPayment } from "../../chain/prepare-payment.ts";

export const PreparedPaymentAnswer = z.object({
  ok: z.literal(true),
  xdr: z.string().describe("The unsigned TransactionEnvelope: one native payment with a hash memo."),
  signer: z.string().describe("The paying account: the transaction's source and only signer."),
  to: z.string(),
  asset: z.literal("native"),
  amountXlm: z.string(),
  memoType: z.literal("hash"),
  memoHash: z.string(),
  fee: z.string().describe("The fee bid in stroops: the latest ledger's base fee for the one operation."),
  validUntil: z.iso.datetime().describe("The transaction's upper time bound (15 minutes after preparing)."),
  network: z.string(),
});

export function paymentAnswer(prepared: PreparedPayment): z.infer<typeof PreparedPaymentAnswer> {
  return {
    ok: true,
    xdr: prepared.xdr,
    signer: prepared.source,
    to: prepared.destination,
    asset: "native",
    amountXlm: stroopsToXlm(prepared.amount),
    memoType: "hash",
    memoHash: prepared.memoHash,
    fee: prepared.fee,
    validUntil: new Date(Number(prepared.maxTime) * 1000).toISOString(),
    network: prepared.networkPassphrase,
  };
}
