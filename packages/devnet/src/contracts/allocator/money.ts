// The allocator's money: pulling fees and bonds in, paying out, credits, and the running liabilities total that
// lets `sweep` pay exactly the surplus.
import { i128, TokenFns } from "@namereg/protocol";
import { ContractError, type InvocationContext } from "../../host/contract.ts";
import { callFn, typed } from "../define.ts";
import { type CreditKind, creditKey, E, K, needToken } from "./storage.ts";

export function addLiabilities(ctx: InvocationContext, delta: bigint): void {
  const s = typed(ctx.storage);
  s.set(K.liabilities, i128, (s.get(K.liabilities, i128) ?? 0n) + delta);
}

export function pullIn(ctx: InvocationContext, from: string, amount: bigint): void {
  if (amount === 0n) return;
  callFn(ctx, needToken(ctx), TokenFns.transfer, { from, to: ctx.contractId, amount });
}

export function payOut(ctx: InvocationContext, to: string, amount: bigint): void {
  if (amount === 0n) return;
  callFn(ctx, needToken(ctx), TokenFns.transfer, { from: ctx.contractId, to, amount });
}

export function creditOf(ctx: InvocationContext, kind: CreditKind, payee: string): bigint {
  return typed(ctx.storage).get(creditKey(kind, payee), i128) ?? 0n;
}

export function credit(ctx: InvocationContext, kind: CreditKind, payee: string, amount: bigint): void {
  if (amount === 0n) return;
  typed(ctx.storage).set(creditKey(kind, payee), i128, creditOf(ctx, kind, payee) + amount);
  addLiabilities(ctx, amount);
}

/** Pays out a whole credit to its payee, whoever triggers it: the payee is the only possible recipient. */
export function payCredit(ctx: InvocationContext, kind: CreditKind, payee: string): bigint {
  const amount = creditOf(ctx, kind, payee);
  if (amount <= 0n) throw new ContractError(E.NO_CREDIT);
  typed(ctx.storage).remove(creditKey(kind, payee));
  addLiabilities(ctx, -amount);
  payOut(ctx, payee, amount);
  return amount;
}
