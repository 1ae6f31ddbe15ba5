// A minimal native token for MemoryHost unit tests: the Stellar Asset Contract functions the naming system calls
// (TokenFns), balances in contract storage. The devnet's real native token reads account balances instead.
// Failures use the Stellar Asset Contract's own error numbers, so a test sees what a real transfer would report.
import { address, i128, TokenFns, unit } from "@namereg/protocol";
import { type Contract, ContractError, type InvocationContext } from "../../host/contract.ts";
import { defineContract, key, typed } from "../define.ts";
import type { MemoryHost } from "./memory-host.ts";

/** Stellar Asset Contract error numbers (soroban-env-host `ContractError`). */
export const TOKEN_ERRORS = { NEGATIVE_AMOUNT: 8, INSUFFICIENT_BALANCE: 10 } as const;

export const TEST_TOKEN_KIND = "native_token";

const balanceKey = (id: string) => key("Balance", address.encode(id));

function balanceOf(ctx: InvocationContext, id: string): bigint {
  return typed(ctx.storage).get(balanceKey(id), i128) ?? 0n;
}

function setBalance(ctx: InvocationContext, id: string, amount: bigint): void {
  typed(ctx.storage).set(balanceKey(id), i128, amount);
}

const tokenFns = defineContract(TEST_TOKEN_KIND, TokenFns, {
  transfer(ctx, { from, to, amount }) {
    ctx.requireAuth(from);
    if (amount < 0n) throw new ContractError(TOKEN_ERRORS.NEGATIVE_AMOUNT, "negative amount");
    const available = balanceOf(ctx, from);
    if (available < amount)
      throw new ContractError(TOKEN_ERRORS.INSUFFICIENT_BALANCE, "insufficient balance");
    setBalance(ctx, from, available - amount);
    setBalance(ctx, to, balanceOf(ctx, to) + amount);
    return null;
  },
  balance: (ctx, { id }) => balanceOf(ctx, id),
  decimals: () => 7,
});

/**
 * The test token. Besides TokenFns it answers `mint(to, amount)` without any auth, so tests can fund accounts;
 * that is why it lives under testing/ and must never be deployed on the devnet chain.
 */
export const testTokenContract: Contract = {
  kind: TEST_TOKEN_KIND,
  invoke(ctx, fn, args) {
    if (fn !== "mint") return tokenFns.invoke(ctx, fn, args);
    const [to, amount] = args;
    if (to === undefined || amount === undefined || args.length !== 2) throw new Error("mint(to, amount)");
    const value = i128.decode(amount, "mint.amount");
    if (value < 0n) throw new ContractError(TOKEN_ERRORS.NEGATIVE_AMOUNT, "negative amount");
    const account = address.decode(to, "mint.to");
    setBalance(ctx, account, balanceOf(ctx, account) + value);
    return unit.encode(null);
  },
};

/** Registers (if needed) and deploys a test token on `host`. */
export function deployTestToken(host: MemoryHost): string {
  host.register(testTokenContract);
  return host.deploy(TEST_TOKEN_KIND);
}

export function mint(host: MemoryHost, tokenId: string, to: string, amount: bigint): void {
  host.invoke(tokenId, "mint", [address.encode(to), i128.encode(amount)]);
}

export function balance(host: MemoryHost, tokenId: string, id: string): bigint {
  return TokenFns.balance.returns.decode(
    host.invoke(tokenId, "balance", TokenFns.balance.encodeArgs({ id })),
  );
}
