// The demo subscriptions of `namereg dev`: the owners of acme, forsale and winner each pay one period to the
// billing account with their namespace node as MEMO_HASH, as an owner would after reading /console/billing;
// plain pays nothing, so it shows as lapsed once enforcement starts (BILLING_GRACE_UNTIL in the past).
import { demoKeypair, type NamingDevnet, Wallet } from "@namereg/devnet";
import { Asset, type Keypair, Memo, Operation } from "@stellar/stellar-sdk";
import { signIn } from "./seed-demo.ts";

export const DEMO_PAID_NAMESPACES = ["acme", "forsale", "winner"] as const;

const OWNERS: Record<(typeof DEMO_PAID_NAMESPACES)[number], Keypair> = {
  acme: demoKeypair("acme"),
  forsale: demoKeypair("seller"),
  winner: demoKeypair("winner"),
};

interface OwnerBillingView {
  state: string;
  instructions: { account: string; memoHash: string; pricePerPeriodXlm: string };
}

export async function seedDemoBilling(options: {
  readonly apiUrl: string;
  readonly devnet: Pick<NamingDevnet, "networkPassphrase" | "rpcUrl">;
}): Promise<void> {
  const wallet = new Wallet({
    rpcUrl: options.devnet.rpcUrl,
    networkPassphrase: options.devnet.networkPassphrase,
  });
  const views = await Promise.all(
    DEMO_PAID_NAMESPACES.map(async (namespace) => {
      const token = await signIn(options, OWNERS[namespace]);
      const view = async () => {
        const response = await fetch(new URL("/console/billing", options.apiUrl), {
          headers: { authorization: `Bearer ${token}`, "x-service-namespace": namespace },
        });
        const text = await response.text();
        if (response.status !== 200)
          throw new Error(`billing of ${namespace} answered ${response.status}: ${text}`);
        return JSON.parse(text) as OwnerBillingView;
      };
      return { namespace, view, first: await view() };
    }),
  );
  // Three payers, three sequence numbers: the payments can go in the same ledger.
  await Promise.all(
    views.map(({ namespace, first }) => {
      const { account, memoHash, pricePerPeriodXlm } = first.instructions;
      return wallet.classic(
        OWNERS[namespace],
        Operation.payment({ destination: account, asset: Asset.native(), amount: pricePerPeriodXlm }),
        Memo.hash(memoHash),
      );
    }),
  );
  // Wait (briefly) for the billing watcher, so the banner is printed with the subscriptions in place.
  for (let i = 0; i < 60; i++) {
    const states = await Promise.all(views.map(async ({ view }) => (await view()).state));
    if (states.every((s) => s === "active")) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the billing watcher did not apply the demo payments within 15 s");
}
