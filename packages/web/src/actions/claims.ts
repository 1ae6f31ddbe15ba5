// A claimant's actions on the allocator (docs/claims.md; docs/api.md "Claim fee"): withdraw an own open claim
// (`withdraw(id)`, wallet session) and recover the claim-fee credit (`claim_fee_credit(payee)`, public prepare
// for the signing account). The allocator's contract ID comes from the claim-fee quote, read just before
// preparing, so the call is held to that contract. Both go to POST /records/submit. Loaded when the action runs.
import { AllocatorFns } from "@namereg/protocol";
import { api, unwrap } from "../api.ts";
import { baseUnitsAmount } from "../format.ts";
import { href } from "../routes.ts";
import type { Action, PreparedAction } from "./action.ts";

const allocatorId = async () => (await unwrap(api.GET("/v1/claim-fee"))).allocatorId;

/** Withdraws claim `id` of the signed-in claimant: 80 % of its fee becomes credit to recover. */
export function withdrawClaim(id: string, namespace: string): Action {
  return {
    title: `Withdraw claim ${id} on ${namespace}`,
    result: { href: href.claims(), label: "The claim queue" },
    async prepare(_wallet, session): Promise<PreparedAction> {
      const def = AllocatorFns.withdraw;
      const asked = { function: def.name, args: def.encodeArgs({ id: BigInt(id) }) };
      const [contractId, prepared] = await Promise.all([
        allocatorId(),
        unwrap(
          api.POST("/console/register/withdraw/prepare", {
            body: { id },
            headers: { authorization: `Bearer ${session.token}` },
          }),
        ),
      ]);
      return {
        xdr: prepared.xdr,
        network: prepared.network,
        contractId,
        contractWords: "the claim allocator",
        asked,
        submit: { route: "holder" },
        describe: (args) => [
          `Withdraw claim ${def.decodeArgs(args).id} on namespace ${namespace}.`,
          "80 % of its fee is credited to you, to recover below; the rest goes to the treasury.",
        ],
      };
    },
  };
}

/** Pays the claim-fee credit waiting for the signed-in account out to it. */
export function recoverCredit(payee: string): Action {
  return {
    title: "Recover your claim-fee credit",
    async prepare(wallet): Promise<PreparedAction> {
      const def = AllocatorFns.claim_fee_credit;
      const asked = { function: def.name, args: def.encodeArgs({ payee }) };
      const [contractId, prepared] = await Promise.all([
        allocatorId(),
        unwrap(
          api.POST("/v1/claim-fee/credit/{address}/prepare", {
            params: { path: { address: payee } },
            body: { source: wallet.account },
          }),
        ),
      ]);
      return {
        xdr: prepared.xdr,
        network: prepared.network,
        contractId,
        contractWords: "the claim allocator",
        asked,
        submit: { route: "holder" },
        describe: (args) => [
          `Pay the claim-fee credit of ${def.decodeArgs(args).payee} out to it: ${baseUnitsAmount(prepared.amount)}.`,
        ],
      };
    },
  };
}
