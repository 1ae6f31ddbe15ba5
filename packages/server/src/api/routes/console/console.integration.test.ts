// The owner console end to end on the demo devnet, indexed, on PGlite and PostgreSQL. The test acts as a wallet
// with nothing but @stellar/stellar-sdk: SEP-10 sign-in with the namespace owner's key, prepare, review the
// unsigned XDR, sign, submit through /console/tx/submit, and see the change live on chain and in the mirror.
// It ends with `seedDemo`, which does the same for the demo's namespace profiles over real HTTP.
import { demoKeypair, type NamingDevnet } from "@namereg/devnet";
import {
  type ArgSpec,
  type FnDef,
  namespaceNode,
  RegistrarFns,
  RegistryFns,
  ResolverFns,
} from "@namereg/protocol";
import {
  Address,
  Asset,
  type Keypair,
  Operation,
  rpc,
  type Transaction,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { FEATURE_DATABASE_KINDS, type TestDatabase } from "../../../../test/fixtures/database.ts";
import { indexDemo, runUntilIdle } from "../../../../test/fixtures/demo.ts";
import { bearer, signIn } from "../../../../test/fixtures/wallet-auth.ts";
import { ChainClient } from "../../../chain/chain-client.ts";
import { namespaceProfiles, namespaces } from "../../../db/tables.ts";
import type { Indexer } from "../../../indexer/indexer.ts";
import { demoProfiles, pngDataUrl, seedDemo } from "../../../runtime/seed-demo.ts";
import { type App, buildApp } from "../../app.ts";

const acmeOwner = demoKeypair("acme");
const plainOwner = demoKeypair("plain");

/** What a wallet shows its user before signing: source, the one contract call and its decoded arguments. */
function review<A extends ArgSpec, R>(unsigned: string, networkPassphrase: string, fn: FnDef<A, R>) {
  const tx = TransactionBuilder.fromXDR(unsigned, networkPassphrase) as Transaction;
  const [op, ...rest] = tx.operations;
  if (op?.type !== "invokeHostFunction" || rest.length > 0) throw new Error("not a single contract call");
  const func: xdr.HostFunction = op.func;
  if (func.type !== "hostFunctionTypeInvokeContract") throw new Error("not a contract invocation");
  const call = func.invokeContract;
  return {
    source: tx.source,
    signatures: tx.signatures.length,
    contractId: Address.fromScAddress(call.contractAddress).toString(),
    fn: call.functionName.toString(),
    args: fn.decodeArgs(call.args),
  };
}

function sign(unsigned: string, networkPassphrase: string, signer: Keypair): string {
  const tx = TransactionBuilder.fromXDR(unsigned, networkPassphrase);
  tx.sign(signer);
  return tx.toXDR();
}

for (const kind of FEATURE_DATABASE_KINDS) {
  describe(`owner console on the demo devnet, ${kind}`, () => {
    let devnet: NamingDevnet;
    let database: TestDatabase;
    let indexer: Indexer;
    let chainClient: ChainClient;
    let app: App;
    let passphrase: string;
    let acmeToken: string;

    beforeAll(async () => {
      ({ devnet, database, indexer } = await indexDemo(kind));
      passphrase = devnet.networkPassphrase;
      chainClient = new ChainClient(devnet.rpcUrl, passphrase);
      const config = testConfig({
        RPC_URL: devnet.rpcUrl,
        NETWORK_PASSPHRASE: passphrase,
        REGISTRY_ID: devnet.contracts.registry,
      });
      app = await buildApp({ config, db: database, redis: null, chainClient });
      acmeToken = await signIn(app, acmeOwner);
    });
    afterAll(async () => {
      await app?.close();
      await devnet?.stop();
      await database?.close();
    });

    const demo = () => {
      if (devnet.demo === undefined) throw new Error("the demo scenario did not run");
      return devnet.demo.namespaces;
    };
    const post = async (url: string, token: string, namespace: string, payload: unknown) => {
      const response = await app.inject({
        method: "POST",
        url,
        headers: { ...bearer(token), "x-service-namespace": namespace },
        payload: payload as Record<string, unknown>,
      });
      return { statusCode: response.statusCode, body: response.json() };
    };
    /** Ledgers close only on demand here; while a submission waits for its result, they close every 50 ms. */
    const submit = async (token: string, namespace: string, signed: string) => {
      devnet.setCloseInterval(50);
      try {
        return await post("/console/tx/submit", token, namespace, { xdr: signed });
      } finally {
        devnet.setCloseInterval(0);
      }
    };
    const mirrored = async (label: string) => {
      await runUntilIdle(indexer);
      const [row] = await database.db
        .select({ subnamePolicy: namespaces.subnamePolicy, chainNetworks: namespaces.chainNetworks })
        .from(namespaces)
        .where(eq(namespaces.label, label));
      return row;
    };

    it("changes acme's subname policy: prepare, review, sign, submit, live", async () => {
      const { registrar } = demo().acme;
      expect(await chainClient.read(registrar, RegistrarFns.subname_policy, {})).toEqual({
        policy: "enabled",
        owner: acmeOwner.publicKey(),
      });

      const prepared = await post("/console/subname-policy/prepare", acmeToken, "acme", {
        namespace: "acme",
        policy: "creation-disabled",
      });
      expect(prepared).toEqual({
        statusCode: 200,
        body: {
          ok: true,
          xdr: expect.any(String),
          signer: acmeOwner.publicKey(),
          registrarId: registrar,
          namespace: "acme",
          network: passphrase,
        },
      });
      expect(review(prepared.body.xdr, passphrase, RegistrarFns.set_subname_policy)).toEqual({
        source: acmeOwner.publicKey(),
        signatures: 0,
        contractId: registrar,
        fn: "set_subname_policy",
        args: { policy: "creation_disabled" },
      });

      const submitted = await submit(acmeToken, "acme", sign(prepared.body.xdr, passphrase, acmeOwner));
      expect(submitted).toEqual({
        statusCode: 200,
        body: { ok: true, txHash: expect.stringMatching(/^[0-9a-f]{64}$/), ledger: expect.any(Number) },
      });
      expect(await chainClient.read(registrar, RegistrarFns.subname_policy, {})).toEqual({
        policy: "creation_disabled",
        owner: acmeOwner.publicKey(),
      });
      expect((await mirrored("acme"))?.subnamePolicy).toBe("creation_disabled");
    });

    it("replaces acme's network allowlist: prepare, review, sign, submit, live", async () => {
      const resolver = demo().acme.resolver ?? "";
      expect(await chainClient.read(resolver, ResolverFns.chain_policy, {})).toEqual(["ethereum", "bitcoin"]);

      const prepared = await post("/console/chain-policy/prepare", acmeToken, "acme", {
        namespace: "acme",
        networks: ["solana", "ethereum"],
      });
      expect(prepared).toEqual({
        statusCode: 200,
        body: {
          xdr: expect.any(String),
          signer: acmeOwner.publicKey(),
          namespace: "acme",
          resolverId: resolver,
          network: passphrase,
          ok: true,
        },
      });
      expect(review(prepared.body.xdr, passphrase, ResolverFns.set_chain_policy)).toEqual({
        source: acmeOwner.publicKey(),
        signatures: 0,
        contractId: resolver,
        fn: "set_chain_policy",
        args: { networks: ["solana", "ethereum"] },
      });

      const submitted = await submit(acmeToken, "acme", sign(prepared.body.xdr, passphrase, acmeOwner));
      expect(submitted.statusCode).toBe(200);
      expect(await chainClient.read(resolver, ResolverFns.chain_policy, {})).toEqual(["solana", "ethereum"]);
      expect((await mirrored("acme"))?.chainNetworks).toEqual(["solana", "ethereum"]);

      // An empty list disables every network.
      const none = await post("/console/chain-policy/prepare", acmeToken, "acme", {
        namespace: "acme",
        networks: [],
      });
      expect(review(none.body.xdr, passphrase, ResolverFns.set_chain_policy).args).toEqual({ networks: [] });
    });

    it("saves acme's profile, read back from the database", async () => {
      const logo = pngDataUrl([10, 20, 30]);
      const response = await app.inject({
        method: "PUT",
        url: "/console/namespace-profile",
        headers: { ...bearer(acmeToken), "x-service-namespace": "acme" },
        payload: { namespace: "acme", displayName: "Acme Industries", logo },
      });
      expect({ statusCode: response.statusCode, body: response.json() }).toEqual({
        statusCode: 200,
        body: { ok: true, namespace: "acme", displayName: "Acme Industries", logo },
      });
      const rows = await database.db
        .select({ displayName: namespaceProfiles.displayName, logo: namespaceProfiles.logo })
        .from(namespaceProfiles)
        .where(eq(namespaceProfiles.label, "acme"));
      expect(rows).toEqual([{ displayName: "Acme Industries", logo }]);
    });

    it("refuses what the chain says no to: a non-owner, a namespace without resolver, an unknown network", async () => {
      const plainToken = await signIn(app, plainOwner);
      expect(
        await post("/console/subname-policy/prepare", plainToken, "acme", {
          namespace: "acme",
          policy: "suspended",
        }),
      ).toEqual({ statusCode: 403, body: { error: "not_namespace_owner", namespace: "acme" } });
      expect(
        await post("/console/chain-policy/prepare", plainToken, "plain", {
          namespace: "plain",
          networks: [],
        }),
      ).toEqual({ statusCode: 409, body: { error: "no_resolver", namespace: "plain" } });
      expect(
        await post("/console/chain-policy/prepare", acmeToken, "acme", {
          namespace: "acme",
          networks: ["dogecoin"],
        }),
      ).toEqual({
        statusCode: 400,
        body: {
          error: "unsupported_network",
          network: "dogecoin",
          detail: "networks: dogecoin is not supported",
        },
      });
      expect(
        await post("/console/chain-policy/prepare", acmeToken, "acme", {
          namespace: "acme",
          networks: ["bitcoin", "bitcoin"],
        }),
      ).toEqual({
        statusCode: 400,
        body: { error: "invalid_request", detail: "networks: lists bitcoin more than once" },
      });
      expect(
        await post("/console/subname-policy/prepare", acmeToken, "acme", {
          namespace: "acme",
          policy: "creation_disabled",
        }),
      ).toEqual({
        statusCode: 400,
        body: { error: "invalid_request", detail: "policy: must be enabled, creation-disabled or suspended" },
      });
    });

    it("relays only signed policy transactions of the session's namespace by its owner", async () => {
      const prepared = await post("/console/subname-policy/prepare", acmeToken, "acme", {
        namespace: "acme",
        policy: "enabled",
      });
      const invalid = (detail: string) => ({ statusCode: 400, body: { error: "invalid_request", detail } });
      expect(await submit(acmeToken, "acme", prepared.body.xdr)).toEqual(
        invalid("xdr: the transaction is not signed"),
      );
      expect(await submit(acmeToken, "acme", "AAAA")).toEqual(
        invalid("xdr: is not a base64 transaction envelope"),
      );

      const account = await new rpc.Server(devnet.rpcUrl, { allowHttp: true }).getAccount(
        acmeOwner.publicKey(),
      );
      const payment = new TransactionBuilder(account, { fee: "100", networkPassphrase: passphrase })
        .addOperation(
          Operation.payment({ destination: plainOwner.publicKey(), asset: Asset.native(), amount: "1" }),
        )
        .setTimeout(300)
        .build();
      payment.sign(acmeOwner);
      // A payment is relayed only as the console prepares it (a bond or billing payment with its hash memo).
      expect(await submit(acmeToken, "acme", payment.toXDR())).toEqual(
        invalid(
          "xdr: carries a none memo; the payments this service prepares carry the hash memo it handed out",
        ),
      );
      const call = new TransactionBuilder(account, { fee: "100", networkPassphrase: passphrase })
        .addOperation(
          Operation.invokeContractFunction({
            contract: devnet.contracts.registry,
            function: "lock",
            args: RegistryFns.lock.encodeArgs({ node: namespaceNode("acme") }),
          }),
        )
        .setTimeout(300)
        .build();
      call.sign(acmeOwner);
      expect(await submit(acmeToken, "acme", call.toXDR())).toEqual(
        invalid(
          "xdr: is not a console transaction of acme (set_subname_policy on its registrar, set_chain_policy on its resolver, propose_transfer or cancel_transfer of its node on the registry, its listing's bond or its billing payment)",
        ),
      );

      // The plain owner cannot relay acme's transaction through a session of theirs.
      const plainToken = await signIn(app, plainOwner);
      const signed = sign(prepared.body.xdr, passphrase, acmeOwner);
      expect(await submit(plainToken, "acme", signed)).toEqual({
        statusCode: 403,
        body: { error: "not_namespace_owner", namespace: "acme" },
      });
      // acme's session is scoped to acme: another namespace header is a 409.
      expect(await submit(acmeToken, "plain", signed)).toEqual({
        statusCode: 409,
        body: {
          error: "namespace_changed",
          detail: "X-Service-Namespace, the body's namespace and the session's namespace must agree",
          header: "plain",
          body: null,
          session: "acme",
        },
      });
      expect((await submit(acmeToken, "acme", signed)).statusCode).toBe(200);
    });

    it("seedDemo signs in as each demo owner over HTTP and sets the demo profiles", async () => {
      const apiUrl = await app.listen({ host: "127.0.0.1", port: 0 });
      await seedDemo({ apiUrl, devnet });
      const rows = await database.db
        .select({
          label: namespaceProfiles.label,
          displayName: namespaceProfiles.displayName,
          logo: namespaceProfiles.logo,
        })
        .from(namespaceProfiles)
        .orderBy(asc(namespaceProfiles.label));
      expect(rows).toEqual(
        demoProfiles()
          .map((p) => ({ label: p.namespace, displayName: p.displayName, logo: pngDataUrl(p.colour) }))
          .sort((a, b) => a.label.localeCompare(b.label)),
      );
      expect(rows.map((r) => r.displayName)).toEqual(["Acme", "For Sale", "Plain"]);
    });
  });
}
