// The HTTP answer to a submission (docs/api.md "Prepare and submit (not under /v1)"): the outcome chain/submit.ts reports, shaped as the API's
// 200 / 202 / 409 bodies. Kept here so that chain/ knows nothing of HTTP.
import type { FastifyReply } from "fastify";
import { z } from "zod";
import type { SubmitOutcome } from "../chain/submit.ts";

export const SubmitSuccessBody = z.object({
  ok: z.literal(true),
  txHash: z.string(),
  ledger: z.number().int(),
});
export const SubmitPendingBody = z.object({
  ok: z.literal(false),
  pending: z.literal(true),
  txHash: z.string(),
});
export const SubmitFailedBody = z.object({
  error: z.literal("transaction_failed"),
  txHash: z.string(),
  resultCode: z.string(),
  contractError: z.number().int().nullable(),
  /** The API's code for `contractError` when docs/contracts.md "Errors" names one (e.g. subname_generation_mismatch). */
  code: z.string().nullable(),
  /** Only on `txBadAuth`: the account that had to sign (the prepare answer's `signer`). */
  signer: z.string().optional(),
  /** Only on `txBadAuth`: what went wrong, in words, naming `signer`. */
  detail: z.string().optional(),
});

/** Response schemas for a route answering with replySubmitOutcome. */
export const SUBMIT_RESPONSES = { 200: SubmitSuccessBody, 202: SubmitPendingBody, 409: SubmitFailedBody };

/**
 * 200 `{ ok: true, txHash, ledger }`; 202 `{ ok: false, pending: true, txHash }` (check that hash, do not
 * replace the transaction); 409 `{ error: "transaction_failed", txHash, resultCode, contractError, code }`, with
 * `signer` and `detail` when the signatures were refused: a bare `txBadAuth` does not tell a wallet whose key it
 * should have used.
 */
export function replySubmitOutcome(reply: FastifyReply, outcome: SubmitOutcome): FastifyReply {
  switch (outcome.status) {
    case "success":
      return reply.code(200).send({ ok: true, txHash: outcome.txHash, ledger: outcome.ledger });
    case "pending":
      return reply.code(202).send({ ok: false, pending: true, txHash: outcome.txHash });
    case "failed": {
      const { contractError, code, signer } = outcome;
      return reply.code(409).send({
        error: "transaction_failed",
        txHash: outcome.txHash,
        resultCode: outcome.resultCode,
        contractError,
        code,
        ...(signer === null
          ? {}
          : {
              signer,
              detail: `the network found no valid signature by ${signer}, the account that must sign this transaction (a prepare answer names it as signer): sign it with that account's key`,
            }),
      });
    }
  }
}
