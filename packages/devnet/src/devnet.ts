// startDevnet: a chain, its ledger clock and its RPC endpoint on 127.0.0.1.
import { Chain, type ChainOptions } from "./chain/chain.ts";
import type { ClosedLedger } from "./chain/ledger-close.ts";
import { FaultController } from "./rpc/fault-controller.ts";
import type { Faults } from "./rpc/faults.ts";
import { type RpcLimits, type RpcLimitsUpdate, resolveLimits } from "./rpc/limits.ts";
import { type RunningServer, startAdminServer, startRpcServer } from "./rpc/server.ts";

export interface DevnetOptions extends ChainOptions {
  /** TCP port (0 = a free one). */
  port?: number;
  host?: string;
  /** Ledger close interval; 0 closes ledgers only on demand (`closeLedger`). Default 1000 ms. */
  closeIntervalMs?: number;
  faults?: Partial<Faults>;
  /** The RPC's request limits; each one absent is stellar-rpc's default (rpc/limits.ts). */
  limits?: RpcLimitsUpdate;
  /**
   * Port of the admin endpoint (`/admin/faults`, fault injection at runtime), a listener of its own on `adminHost`
   * (default 127.0.0.1); 0 = a free port. Absent = no admin endpoint: the public port never serves `/admin`.
   */
  adminPort?: number;
  adminHost?: string;
  /**
   * Runs on the fresh chain before the server starts and before any ledger closes: register contract kinds,
   * genesis-deploy contracts, fund accounts.
   */
  setup?: (chain: Chain) => void | Promise<void>;
  /**
   * Builds history through the RPC before anyone else can reach it: runs against a private server on a free port,
   * and the public port opens only when it is done. No outside request can close a ledger in the middle of a
   * build that dates its ledgers itself.
   */
  build?: (ctx: { rpcUrl: string; chain: Chain }) => Promise<void>;
}

export interface Devnet {
  readonly rpcUrl: string;
  readonly networkPassphrase: string;
  readonly friendbotUrl: string;
  /** Base URL of the admin endpoint (`${adminUrl}/admin/faults`), when `adminPort` was given. */
  readonly adminUrl: string | undefined;
  readonly limits: RpcLimits;
  readonly chain: Chain;
  /** Closes a ledger now (nothing closes while the head is frozen). */
  closeLedger(opts?: { closeTime?: number | bigint }): ClosedLedger;
  /** Credits an account from the root account at once, creating it if needed (default 10,000 XLM). */
  fund(publicKey: string, amount?: bigint): void;
  faults(): Faults;
  setFaults(update: Partial<Faults>): Faults;
  /** Changes the ledger close interval at runtime (0 = on demand only); scenarios build history first. */
  setCloseInterval(ms: number): void;
  stop(): Promise<void>;
}

export async function startDevnet(opts: DevnetOptions = {}): Promise<Devnet> {
  const chain = new Chain(opts);
  await opts.setup?.(chain);
  const faults = new FaultController(chain, opts.faults);
  const limits = resolveLimits(opts.limits);
  if (opts.build !== undefined) {
    const builder = await startRpcServer({ chain, faults, limits, host: "127.0.0.1", port: 0 });
    try {
      await opts.build({ rpcUrl: builder.url, chain });
    } finally {
      await builder.close();
    }
  }
  const server = await startRpcServer({
    chain,
    faults,
    limits,
    host: opts.host ?? "127.0.0.1",
    port: opts.port ?? 0,
  });
  let admin: RunningServer | undefined;
  if (opts.adminPort !== undefined) {
    try {
      admin = await startAdminServer({ faults, host: opts.adminHost ?? "127.0.0.1", port: opts.adminPort });
    } catch (error) {
      await server.close();
      throw error;
    }
  }
  const tick = () => {
    try {
      chain.closeLedger();
    } catch (error) {
      console.error("devnet: closing a ledger failed:", error);
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const setCloseInterval = (ms: number) => {
    if (!Number.isInteger(ms) || ms < 0)
      throw new RangeError(`close interval must be a whole number of ms: ${ms}`);
    if (timer !== undefined) clearInterval(timer);
    timer = ms > 0 ? setInterval(tick, ms) : undefined;
  };
  setCloseInterval(opts.closeIntervalMs ?? 1000);
  return {
    rpcUrl: server.url,
    networkPassphrase: chain.networkPassphrase,
    friendbotUrl: `${server.url}/friendbot`,
    adminUrl: admin?.url,
    limits,
    chain,
    closeLedger: (closeOpts) => chain.closeLedger(closeOpts),
    fund: (publicKey, amount) => chain.fund(publicKey, amount),
    faults: () => faults.current,
    setFaults: (update) => faults.update(update),
    setCloseInterval,
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      await Promise.all([server.close(), admin?.close()]);
    },
  };
}
