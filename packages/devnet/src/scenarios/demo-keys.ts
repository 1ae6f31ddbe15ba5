// Deterministic demo accounts: the same seeds give the same keys on every machine, so README examples and
// tests can name alice's account outright. Development only — these secrets are public by design.
import { sha256 } from "@noble/hashes/sha2.js";
import { Keypair } from "@stellar/stellar-sdk";

export const DEMO_ROLES = [
  "admin",
  "treasury",
  "acme",
  "plain",
  "seller",
  "alice",
  "bob",
  "carol",
  "newco",
  "contested",
  "objector",
  "winner",
  // The marketplace escrow of `namereg dev` (its secret is the service's ESCROW_SECRET there).
  "escrow",
  // The billing account of `namereg dev` (it only receives; the service never signs with it).
  "billing",
  // Appended last so every earlier role keeps its place: funded by the scenario, in no claim or name of it.
  "claimant",
  // A new buyer for `forsale`: funded like the others, holds nothing. Appended, so the keys above stay put.
  "buyer",
] as const;

export type DemoRole = (typeof DEMO_ROLES)[number];

/** What each demo account is in the demo scenario (demo.ts), in words, for a person choosing whom to act as. */
export const DEMO_ROLE_NOTES: Readonly<Record<DemoRole, string>> = {
  admin: "the allocator's admin (reserves and awards namespaces)",
  treasury: "receives the claim fees",
  acme: "owner of namespace acme",
  plain: "owner of namespace plain",
  seller: "owner of namespace forsale",
  alice: "holder of alice.acme (subname pay.alice.acme)",
  bob: "holder of bob.acme and old.acme",
  carol: "holder of carol.plain",
  newco: "claimant of namespace newco",
  contested: "claimant of namespace contested",
  objector: "objector to the claim on contested",
  winner: "owner of namespace winner (an awarded claim)",
  escrow: "the marketplace escrow of namereg dev",
  billing: "the billing account of namereg dev",
  claimant: "a new claimant: funded, no claim yet",
  buyer: "a new buyer: funded, holds nothing",
};

export function demoKeypair(role: DemoRole): Keypair {
  return Keypair.fromRawEd25519Seed(Buffer.from(sha256(new TextEncoder().encode(`namereg-demo:${role}`))));
}

export function demoAccounts(): Record<DemoRole, Keypair> {
  return Object.fromEntries(DEMO_ROLES.map((r) => [r, demoKeypair(r)])) as Record<DemoRole, Keypair>;
}
