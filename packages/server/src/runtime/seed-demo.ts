// Off-chain demo state (docs/design.md "Demo scenario"): namespace display names and logos, set the way a real owner sets
// them, over HTTP: SEP-10 sign-in with the owner's wallet key, then PUT /console/namespace-profile. `namereg dev`
// calls this once the API is up, so the demo also proves the sign-in and console path end to end.
import { crc32, deflateSync } from "node:zlib";
import { demoKeypair, type NamingDevnet } from "@namereg/devnet";
import { type Keypair, TransactionBuilder } from "@stellar/stellar-sdk";

export interface SeedDemoOptions {
  /** Base URL of the running API, e.g. `http://localhost:8080`. */
  readonly apiUrl: string;
  readonly devnet: Pick<NamingDevnet, "networkPassphrase">;
}

interface DemoProfile {
  readonly namespace: string;
  readonly owner: Keypair;
  readonly displayName: string;
  /** Logo colour, RGB. */
  readonly colour: readonly [number, number, number];
}

export function demoProfiles(): DemoProfile[] {
  return [
    { namespace: "acme", owner: demoKeypair("acme"), displayName: "Acme", colour: [0xd9, 0x48, 0x1e] },
    { namespace: "plain", owner: demoKeypair("plain"), displayName: "Plain", colour: [0x6b, 0x72, 0x80] },
    {
      namespace: "forsale",
      owner: demoKeypair("seller"),
      displayName: "For Sale",
      colour: [0x16, 0xa3, 0x4a],
    },
  ];
}

export async function seedDemo(options: SeedDemoOptions): Promise<void> {
  for (const profile of demoProfiles()) {
    const token = await signIn(options, profile.owner);
    await call(options.apiUrl, "PUT", "/console/namespace-profile", {
      headers: { authorization: `Bearer ${token}`, "x-service-namespace": profile.namespace },
      body: {
        namespace: profile.namespace,
        displayName: profile.displayName,
        logo: pngDataUrl(profile.colour),
      },
    });
    await call(options.apiUrl, "POST", "/auth/logout", { headers: { authorization: `Bearer ${token}` } });
  }
}

/** SEP-10 as a wallet does it: fetch the challenge, check it is for our network, sign it, trade it for a token. */
export async function signIn(options: SeedDemoOptions, wallet: Keypair): Promise<string> {
  const challenge = (await call(options.apiUrl, "GET", `/auth?account=${wallet.publicKey()}`)) as {
    transaction: string;
    network_passphrase: string;
  };
  if (challenge.network_passphrase !== options.devnet.networkPassphrase) {
    throw new Error(`the API signs in for "${challenge.network_passphrase}", not the devnet's network`);
  }
  const tx = TransactionBuilder.fromXDR(challenge.transaction, options.devnet.networkPassphrase);
  tx.sign(wallet);
  const { token } = (await call(options.apiUrl, "POST", "/auth", { body: { transaction: tx.toXDR() } })) as {
    token: string;
  };
  return token;
}

async function call(
  apiUrl: string,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<unknown> {
  const response = await fetch(new URL(path, apiUrl), {
    method,
    headers: { ...init.headers, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`seeding the demo: ${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

/** A 16×16 PNG of one colour, as a data URL: a real image, made here so the demo ships no binary files. */
export function pngDataUrl(colour: readonly [number, number, number], size = 16): string {
  return `data:image/png;base64,${solidPng(colour, size).toString("base64")}`;
}

export function solidPng(colour: readonly [number, number, number], size = 16): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: truecolour RGB
  // Compression, filter and interlace methods stay 0.
  const row = Buffer.from([0, ...Array.from({ length: size }, () => colour).flat()]); // filter byte 0 (None)
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
