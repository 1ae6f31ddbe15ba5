// The demo listing of `namereg dev`: `forsale` listed by its owner (`seller`) at 500 XLM through the console
// route, and the bond paid by a real signed payment to the escrow, as a seller would do it. The escrow watcher
// then sees the bond and the listing turns active.
import { demoKeypair, type NamingDevnet, Wallet } from "@namereg/devnet";
import { Asset, Memo, Operation } from "@stellar/stellar-sdk";
import { signIn } from "./seed-demo.ts";

export const DEMO_LISTING = { namespace: "forsale", priceXlm: "500" } as const;

export async function seedDemoListing(options: {
  readonly apiUrl: string;
  readonly devnet: Pick<NamingDevnet, "networkPassphrase" | "rpcUrl">;
}): Promise<void> {
  const seller = demoKeypair("seller");
  const token = await signIn(options, seller);
  const response = await fetch(new URL("/console/market/listings", options.apiUrl), {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "x-service-namespace": DEMO_LISTING.namespace,
      "content-type": "application/json",
    },
    body: JSON.stringify(DEMO_LISTING),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`listing forsale answered ${response.status}: ${text}`);
  const { bond } = JSON.parse(text) as { bond: { to: string; amountXlm: string; memoHash: string } };
  const wallet = new Wallet({
    rpcUrl: options.devnet.rpcUrl,
    networkPassphrase: options.devnet.networkPassphrase,
  });
  await wallet.classic(
    seller,
    Operation.payment({ destination: bond.to, asset: Asset.native(), amount: bond.amountXlm }),
    Memo.hash(bond.memoHash),
  );
  // Wait (briefly) for the watcher to see the bond, so the banner's listing is live when it is printed.
  for (let i = 0; i < 40; i++) {
    const listings = (await (await fetch(new URL("/v1/market/listings", options.apiUrl))).json()) as {
      listings: { namespace: string }[];
    };
    if (listings.listings.some((l) => l.namespace === DEMO_LISTING.namespace)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the escrow watcher did not activate the forsale listing within 10 s");
}
