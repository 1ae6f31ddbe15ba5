// The built-in Stellar Asset Contract for XLM: G balances are the accounts' native balances, C balances
// are contract data, as the real SAC keeps them.
import { StrKey, xdr } from "@stellar/stellar-sdk";
import { type Contract, ContractError, type InvocationContext } from "../../host/contract.ts";
import { addressVal, i128, readAddress, readI128, struct, structField, symbol } from "./scval.ts";

export const NATIVE_TOKEN_KIND = "stellar_asset:native";

/** The SAC's own error codes (soroban-env-host builtin token ContractError). */
export const SacError = {
  accountMissing: 6,
  negativeAmount: 8,
  balance: 10,
  overflow: 12,
} as const;

/** Access to classic account balances, granted by the host only to the native token. */
export interface NativeBalances {
  /** Spendable balance of a G account (above its reserve), undefined when the account does not exist. */
  spendable(accountId: string): bigint | undefined;
  total(accountId: string): bigint | undefined;
  add(accountId: string, delta: bigint): void;
}

export interface NativeTokenContext extends InvocationContext {
  readonly balances: NativeBalances;
}

const MAX_I64 = (1n << 63n) - 1n;

function balanceKey(address: string): xdr.ScVal {
  return xdr.ScVal.scvVec([symbol("Balance"), addressVal(address)]);
}

function contractBalance(ctx: InvocationContext, address: string): bigint {
  return readI128(structField(ctx.storage.get(balanceKey(address)), "amount")) ?? 0n;
}

function setContractBalance(ctx: InvocationContext, address: string, amount: bigint): void {
  ctx.storage.set(
    balanceKey(address),
    struct({ amount: i128(amount), authorized: xdr.ScVal.scvBool(true), clawback: xdr.ScVal.scvBool(false) }),
  );
}

function debit(ctx: NativeTokenContext, address: string, amount: bigint): void {
  if (StrKey.isValidEd25519PublicKey(address)) {
    const spendable = ctx.balances.spendable(address);
    if (spendable === undefined) throw new ContractError(SacError.accountMissing, "account missing");
    if (spendable < amount)
      throw new ContractError(SacError.balance, "resulting balance is not within the allowed range");
    ctx.balances.add(address, -amount);
    return;
  }
  const balance = contractBalance(ctx, address);
  if (balance < amount)
    throw new ContractError(SacError.balance, "resulting balance is not within the allowed range");
  setContractBalance(ctx, address, balance - amount);
}

function credit(ctx: NativeTokenContext, address: string, amount: bigint): void {
  if (StrKey.isValidEd25519PublicKey(address)) {
    const total = ctx.balances.total(address);
    if (total === undefined) throw new ContractError(SacError.accountMissing, "account missing");
    if (total + amount > MAX_I64) throw new ContractError(SacError.overflow, "balance overflow");
    ctx.balances.add(address, amount);
    return;
  }
  setContractBalance(ctx, address, contractBalance(ctx, address) + amount);
}

function argAddress(args: readonly xdr.ScVal[], index: number): string {
  const address = readAddress(args[index]);
  if (address === undefined) throw new Error(`argument ${index} must be an address`);
  return address;
}

export function transferEvent(
  from: string,
  to: string,
  amount: bigint,
): { topics: xdr.ScVal[]; data: xdr.ScVal } {
  return {
    topics: [symbol("transfer"), addressVal(from), addressVal(to), xdr.ScVal.scvString("native")],
    data: i128(amount),
  };
}

export const nativeToken: Contract = {
  kind: NATIVE_TOKEN_KIND,
  invoke(context: InvocationContext, fn: string, args: xdr.ScVal[]): xdr.ScVal {
    const ctx = context as NativeTokenContext;
    switch (fn) {
      case "transfer": {
        const from = argAddress(args, 0);
        const to = argAddress(args, 1);
        const amount = readI128(args[2]);
        if (amount === undefined) throw new Error("amount must be an i128");
        if (amount < 0n) throw new ContractError(SacError.negativeAmount, "negative amount is not allowed");
        ctx.requireAuth(from);
        debit(ctx, from, amount);
        credit(ctx, to, amount);
        const event = transferEvent(from, to, amount);
        ctx.emit(event.topics, event.data);
        return xdr.ScVal.scvVoid();
      }
      case "balance": {
        const id = argAddress(args, 0);
        if (StrKey.isValidEd25519PublicKey(id)) {
          const total = ctx.balances.total(id);
          if (total === undefined) throw new ContractError(SacError.accountMissing, "account missing");
          return i128(total);
        }
        return i128(contractBalance(ctx, id));
      }
      case "decimals":
        return xdr.ScVal.scvU32(7);
      case "name":
      case "symbol":
        return xdr.ScVal.scvString("native");
      default:
        throw new Error(`function ${fn} is not supported by the devnet's native token`);
    }
  },
};
