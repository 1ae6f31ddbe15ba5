// A claimant's withdrawal of its own claim (docs/claims.md): prepared for the signed-in wallet, verified to be
// exactly `withdraw(id)` on the allocator, signed and submitted (POST /records/submit relays allocator calls).
import { AllocatorFns } from "@namereg/protocol";
import { type NameregApi, NameregError, unwrap } from "./api.ts";
import { type SignWith, type Submitted, submitSigned, verifyAndSign } from "./transactions.ts";

/**
 * Withdraws claim `id` as the claimant `sign.account` signed in with `session.token` (POST
 * /console/register/withdraw/prepare, verify, sign, POST /records/submit). The fee is settled `Withdrawn`: 80 % is
 * credited to the claimant, to recover with the claim-fee credit route.
 */
export async function withdrawClaim(
  api: NameregApi,
  claim: { readonly id: string },
  session: { readonly token: string },
  sign: SignWith,
): Promise<Submitted> {
  if (!/^\d{1,20}$/.test(claim.id)) {
    throw new NameregError(400, {
      error: "invalid_request",
      detail: "id: must be a claim id: a decimal string",
    });
  }
  const asked = {
    function: AllocatorFns.withdraw.name,
    args: AllocatorFns.withdraw.encodeArgs({ id: BigInt(claim.id) }),
  };
  const prepared = await unwrap(
    api.POST("/console/register/withdraw/prepare", {
      body: { id: claim.id },
      headers: { authorization: `Bearer ${session.token}` },
    }),
  );
  return submitSigned(api, await verifyAndSign(prepared, asked, "allocatorId", sign));
}
