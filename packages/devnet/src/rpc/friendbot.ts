// Friendbot: funds a new account with 10,000 XLM by a real createAccount transaction from the root account,
// closed into a ledger at once so the SDK's getTransaction finds it.
import { Account, Operation, StrKey, TimeoutInfinite, TransactionBuilder } from "@stellar/stellar-sdk";
import { readAccount } from "../chain/accounts.ts";
import type { Chain } from "../chain/chain.ts";

export const FRIENDBOT_XLM = "10000";

export interface FriendbotReply {
  readonly status: number;
  readonly body: unknown;
}

function problem(status: number, title: string, detail: string): FriendbotReply {
  return {
    status,
    body: { type: "https://stellar.org/horizon-errors/transaction_failed", title, status, detail },
  };
}

export function friendbot(chain: Chain, addr: string | null): FriendbotReply {
  if (addr === null || !StrKey.isValidEd25519PublicKey(addr)) {
    return problem(
      400,
      "Bad Request",
      "The request you sent was invalid in some way: addr must be a G... account id",
    );
  }
  if (chain.accountExists(addr)) {
    return problem(400, "Transaction Failed", "createAccountAlreadyExist: the account is already funded");
  }
  if (chain.frozen) return problem(503, "Service Unavailable", "ledgers are not closing (frozen head)");
  const rootId = chain.root.publicKey();
  const root = readAccount(chain.state, rootId);
  if (root === undefined) return problem(500, "Internal Server Error", "the root account is missing");
  const tx = new TransactionBuilder(new Account(rootId, root.seqNum.toString()), {
    fee: "100",
    networkPassphrase: chain.networkPassphrase,
  })
    .addOperation(Operation.createAccount({ destination: addr, startingBalance: FRIENDBOT_XLM }))
    .setTimeout(TimeoutInfinite)
    .build();
  tx.sign(chain.root);
  let sent = chain.submit(tx.toXDR());
  if (sent.status === "TRY_AGAIN_LATER") {
    chain.closeLedger();
    sent = chain.submit(tx.toXDR());
  }
  if (sent.status !== "PENDING")
    return problem(500, "Transaction Failed", `friendbot transaction ${sent.status}`);
  chain.closeLedger();
  const record = chain.transaction(sent.hash);
  if (record === undefined)
    return problem(500, "Internal Server Error", "friendbot transaction was not applied");
  return {
    status: record.applied.successful ? 200 : 400,
    body: {
      successful: record.applied.successful,
      hash: record.hash,
      ledger: record.ledger.sequence,
      envelope_xdr: record.envelopeXdr,
      result_xdr: record.resultXdr,
      result_meta_xdr: record.resultMetaXdr,
    },
  };
}
