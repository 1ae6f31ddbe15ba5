// A claimant's withdrawal of its own claim, prepared for its wallet (docs/api.md "Claim fee", **Chosen**): the
// session's wallet is the claimant, as for the announcement. The claim is read live first, so a wallet is never
// shown a withdrawal that can only fail: unknown claim, another claimant's, or one no longer open. Withdrawing
// settles the fee as `Withdrawn` (an 80 % refund credited to the claimant, docs/contracts.md "Allocator"). The
// signed transaction is relayed by POST /records/submit (allocator `withdraw`).
import { AllocatorFns } from "@namereg/protocol";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { liveRead } from "../../../chain/live-reads.ts";
import { noStore } from "../../cache.ts";
import { type ConsoleContext, sessionOf } from "../../common/console-context.ts";
import { ApiError } from "../../errors.ts";
import type { RouteDeps } from "../../route-deps.ts";
import { CONSOLE_ERRORS, PREPARE_ERRORS, routeRules } from "../../route-rules.ts";
import { allocatorChain } from "./claim-fee-errors.ts";

/** The states in which the allocator lets a claimant withdraw (docs/contracts.md "Allocator": a live claim). */
const OPEN_STATES: readonly string[] = ["announced", "objected"];

const WithdrawBody = z.strictObject({
  // One check, not a regex then a range: zod runs every check, and BigInt() throws on what the regex refused.
  id: z
    .string({ error: "is required" })
    .refine((id) => /^\d{1,20}$/.test(id) && BigInt(id) < 2n ** 64n, "must be a claim id: a decimal string"),
});

const WithdrawPrepared = z.object({
  ok: z.literal(true),
  xdr: z.string(),
  claimant: z.string(),
  id: z.string(),
  label: z.string(),
  allocatorId: z.string(),
  network: z.string(),
});

export const consoleWithdrawRoutes: FastifyPluginAsyncZod<
  ConsoleContext & Pick<RouteDeps, "config">
> = async (app, { chainClient, config }) => {
  app.post(
    "/console/register/withdraw/prepare",
    {
      schema: {
        summary: "Claimant: prepare withdrawing the session's own claim",
        body: WithdrawBody,
        response: { 200: WithdrawPrepared },
      },
      config: routeRules("prepare", [
        ...CONSOLE_ERRORS,
        ...PREPARE_ERRORS,
        "not_found",
        "not_claimant",
        "claim_not_open",
      ]),
    },
    async (request, reply) => {
      noStore(reply);
      const session = sessionOf(request);
      const account = session.account;
      if (session.kind !== "wallet" || account === null) {
        throw new ApiError("wallet_session_required", {
          detail: "Sign in with the claimant's wallet: only the claimant withdraws its claim.",
        });
      }
      const id = BigInt(request.body.id);
      const { reader, allocatorId } = allocatorChain(chainClient, config.chain.contracts.allocator.id);
      const claim = await liveRead(
        reader,
        allocatorId,
        AllocatorFns.claim,
        { id },
        { failure: "chain_unavailable" },
      );
      if (claim === null) throw new ApiError("not_found", { id: request.body.id });
      if (claim.claimant !== account) {
        throw new ApiError("not_claimant", { id: request.body.id, claimant: claim.claimant });
      }
      if (!OPEN_STATES.includes(claim.state)) {
        throw new ApiError("claim_not_open", { id: request.body.id, state: claim.state });
      }
      const prepared = await reader.prepare(account, allocatorId, AllocatorFns.withdraw, { id });
      return {
        ok: true as const,
        xdr: prepared.xdr,
        claimant: account,
        id: request.body.id,
        label: claim.label,
        allocatorId,
        network: prepared.networkPassphrase,
      };
    },
  );
};
