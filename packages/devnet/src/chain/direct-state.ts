// Changes to the chain's state made outside any transaction (genesis set-up, scenarios, friendbot): the root
// account and the native token at genesis, funding from the root, contract data, privileged host invocations.
import { type Keypair, StrKey, xdr } from "@stellar/stellar-sdk";
import { newAccountEntry, readAccount, withAccountChanges, writeAccount } from "./accounts.ts";
import { TOTAL_COINS } from "./ledger-close.ts";
import { type LedgerState, ledgerKeyId, StateOverlay } from "./ledger-state.ts";
import { PrivilegedAuth } from "./soroban/auth.ts";
import {
  contractDataKey,
  contractDataRecord,
  type Durability,
  instanceRecord,
} from "./soroban/contract-data.ts";
import { Footprint } from "./soroban/footprint.ts";
import { Host, type HostEnvironment } from "./soroban/host.ts";
import type { SyntheticEvent } from "./synthetic-events.ts";

/** The genesis state: the root account holding every coin, and the native token's contract instance. */
export function seedGenesisState(
  state: LedgerState,
  root: Keypair,
  nativeTokenId: string,
  genesis: number,
): void {
  writeAccount(state, root.publicKey(), newAccountEntry(root.publicKey(), TOTAL_COINS, 0n), genesis);
  state.put(
    ledgerKeyId(contractDataKey(nativeTokenId, xdr.ScVal.scvLedgerKeyContractInstance())),
    instanceRecord(nativeTokenId, xdr.ContractExecutable.contractExecutableStellarAsset(), genesis),
  );
}

/**
 * Runs `run` on a host with every address authorised and commits its state changes; returns its result and its
 * events as synthetic events numbered `privileged:<offset + i>`, to be injected into the next closed ledger.
 */
export function runPrivileged(
  state: LedgerState,
  env: HostEnvironment,
  offset: number,
  run: (host: Host) => xdr.ScVal,
): { result: xdr.ScVal; events: SyntheticEvent[] } {
  const overlay = new StateOverlay(state);
  const host = new Host(env, overlay, new PrivilegedAuth(), new Footprint());
  const result = run(host);
  overlay.commit();
  const events: SyntheticEvent[] = [];
  for (const event of host.events) {
    const body = event.body.value;
    events.push({
      contractId: StrKey.encodeContract((event.contractId as xdr.ContractId).value),
      topics: body.topics,
      value: body.data,
      tx: `privileged:${offset + events.length}`,
    });
  }
  return { result, events };
}

export function readContractData(
  state: LedgerState,
  contractId: string,
  key: xdr.ScVal,
  durability: Durability,
): xdr.ScVal | undefined {
  const record = state.get(ledgerKeyId(contractDataKey(contractId, key, durability)));
  return record?.data.type === "contractData" ? record.data.contractData.val : undefined;
}

export function writeContractData(
  state: LedgerState,
  contractId: string,
  key: xdr.ScVal,
  value: xdr.ScVal,
  ledger: number,
  durability: Durability,
): void {
  state.put(
    ledgerKeyId(contractDataKey(contractId, key, durability)),
    contractDataRecord(contractId, key, value, ledger, durability),
  );
}

/** Credits `amount` stroops from the root account, creating the account if needed, at ledger `seq`. */
export function fundFromRoot(
  state: LedgerState,
  rootId: string,
  accountId: string,
  amount: bigint,
  seq: number,
): void {
  if (!StrKey.isValidEd25519PublicKey(accountId)) throw new Error(`not an account id: ${accountId}`);
  const root = readAccount(state, rootId);
  if (root === undefined || root.balance < amount)
    throw new Error("the root account cannot fund this amount");
  writeAccount(state, rootId, withAccountChanges(root, { balance: root.balance - amount }), seq);
  const account = readAccount(state, accountId);
  writeAccount(
    state,
    accountId,
    account === undefined
      ? newAccountEntry(accountId, amount, BigInt(seq) << 32n)
      : withAccountChanges(account, { balance: account.balance + amount }),
    seq,
  );
}
