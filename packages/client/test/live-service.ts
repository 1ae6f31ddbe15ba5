// The service as a wallet outside the repository meets it: the indexed demo devnet and the app listening on a
// loopback port, with HOME_DOMAIN and PUBLIC_URL at that address so `label.namespace*<home domain>` federation
// finds the stellar.toml there as on a real domain. Ledgers close on their own, so submissions get included.
import { type App, buildApp, ChainClient } from "@namereg/server";
import { freePort, indexDemo, testConfig } from "@namereg/server/testing";

export interface LiveService {
  /** e.g. http://127.0.0.1:43123 */
  readonly baseUrl: string;
  /** e.g. localhost:43123: the `*domain` of `alice.acme*<home domain>`. */
  readonly homeDomain: string;
  readonly rpcUrl: string;
  readonly networkPassphrase: string;
  readonly lookupId: string;
  close(): Promise<void>;
}

export async function startLiveService(): Promise<LiveService> {
  // PostgreSQL: the service only reads the mirror here, and PGlite costs several times the CPU.
  const demo = await indexDemo("postgres");
  let app: App | undefined;
  try {
    const { rpcUrl, networkPassphrase } = demo.devnet;
    demo.devnet.setCloseInterval(200);
    const port = await freePort();
    // A host name, not 127.0.0.1: the SDK's federation client accepts only RFC 1035 domains (an IP address is not).
    const homeDomain = `localhost:${port}`;
    app = await buildApp({
      config: testConfig({
        HOME_DOMAIN: homeDomain,
        PUBLIC_URL: `http://${homeDomain}`,
        NETWORK_PASSPHRASE: networkPassphrase,
      }),
      db: demo.database,
      redis: null,
      chainClient: new ChainClient(rpcUrl, networkPassphrase),
    });
    const baseUrl = await app.listen({ port, host: "127.0.0.1" });
    const running = app;
    return {
      baseUrl,
      homeDomain,
      rpcUrl,
      networkPassphrase,
      lookupId: demo.devnet.contracts.lookup,
      async close() {
        await running.close();
        await demo.database.close();
        await demo.devnet.stop();
      },
    };
  } catch (error) {
    await app?.close();
    await demo.database.close();
    await demo.devnet.stop();
    throw error;
  }
}
