// What POST /console/tx/submit relays (docs/api.md "Wallet sessions and the owner console", **Chosen**): only what the
// console prepares for the session's namespace, signed by the session's account — a policy change on its
// registrar or resolver, a transfer proposal or its cancellation on the registry for its own node, the bond
// payment of one of its listings, or a billing payment for it. Anything else is not the console's business to
// submit, even signed by the owner.
import { hash32, namespaceNode, RegistrarFns, RegistryFns, ResolverFns } from "@namereg/protocol";
import type { xdr } from "@stellar/stellar-sdk";
import {
  Address,
  FeeBumpTransaction,
  type Operation,
  type Transaction,
  TransactionBuilder,
} from "@stellar/stellar-sdk";
import type { OwnerContext } from "../../../auth/console-guard.ts";
import { paymentCallOf } from "../../../chain/submit-policy.ts";
import { judgeRelayedPayment, type PaymentRelayContext } from "../../common/payment-relay.ts";
import { ApiError } from "../../errors.ts";

const invalid = (detail: string) => new ApiError("invalid_request", { detail: `xdr: ${detail}` });

export interface ConsoleRelayContext extends PaymentRelayContext {
  readonly registryId: string | null;
}

/** Throws 400 invalid_request (`xdr: …`) unless `text` is one of the console's own transactions for `owner`. */
export async function requireConsoleTransaction(
  ctx: ConsoleRelayContext,
  text: string,
  networkPassphrase: string,
  owner: OwnerContext,
): Promise<void> {
  let tx: Transaction | FeeBumpTransaction;
  try {
    tx = TransactionBuilder.fromXDR(text.trim(), networkPassphrase);
  } catch {
    throw invalid("is not a base64 transaction envelope");
  }
  if (tx instanceof FeeBumpTransaction)
    throw invalid("must be the prepared transaction itself, not a fee bump");
  if (tx.signatures.length === 0) throw invalid("the transaction is not signed");
  const account = owner.session.account;
  if (tx.source !== account) throw invalid("the transaction's source is not the session's account");
  const [op, ...others] = tx.operations;
  if (op !== undefined && others.length === 0 && op.type === "payment") {
    return requireOwnPayment(ctx, tx, op, owner);
  }
  const call = op?.type === "invokeHostFunction" && others.length === 0 ? contractCall(op) : null;
  const node = namespaceNode(owner.namespace);
  // The registry's transfer calls name the namespace by its node, first; another namespace's is not this console's.
  const ownNode = (args: readonly xdr.ScVal[]) => {
    const [first] = args;
    try {
      return first !== undefined && hash32.decode(first) === node;
    } catch {
      return false;
    }
  };
  const allowed: (readonly [string | null, string, (args: readonly xdr.ScVal[]) => boolean])[] = [
    [owner.record.registrar, RegistrarFns.set_subname_policy.name, () => true],
    [owner.record.resolver, ResolverFns.set_chain_policy.name, () => true],
    [ctx.registryId, RegistryFns.propose_transfer.name, ownNode],
    [ctx.registryId, RegistryFns.cancel_transfer.name, ownNode],
  ];
  if (
    call === null ||
    !allowed.some(([id, fn, argsOk]) => id === call.contractId && fn === call.fn && argsOk(call.args))
  ) {
    throw invalid(
      `is not a console transaction of ${owner.namespace} (set_subname_policy on its registrar, set_chain_policy on its resolver, propose_transfer or cancel_transfer of its node on the registry, its listing's bond or its billing payment)`,
    );
  }
}

async function requireOwnPayment(
  ctx: ConsoleRelayContext,
  tx: Transaction,
  op: Operation.Payment,
  owner: OwnerContext,
): Promise<void> {
  const payment = paymentCallOf(tx, op);
  if (payment.source !== owner.session.account)
    throw invalid("the payment's source is not the session's account");
  const purpose = await judgeRelayedPayment(ctx, payment, invalid);
  if (purpose.kind === "deposit" || purpose.namespace !== owner.namespace) {
    throw invalid(`is not a payment of ${owner.namespace} (its listing's bond or its billing)`);
  }
}

function contractCall(
  op: Operation.InvokeHostFunction,
): { contractId: string; fn: string; args: readonly xdr.ScVal[] } | null {
  const func = op.func;
  if (func.type !== "hostFunctionTypeInvokeContract") return null;
  const { contractAddress, functionName, args } = func.invokeContract;
  return {
    contractId: Address.fromScAddress(contractAddress).toString(),
    fn: functionName.toString(),
    args,
  };
}
