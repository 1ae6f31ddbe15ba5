// A thin Stellar RPC client for the indexer and live reads. getEvents goes over raw JSON-RPC: the SDK's
// getEvents parses every topic and value into XDR objects, while the indexer archives the base64 as received
// and decodes naming events once with the protocol codecs — parsing twice would halve ingest speed.
// Transient failures (network errors, HTTP 5xx, JSON-RPC -32603) are retried with exponential backoff.

export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }
}

/** `startLedger must be within the ledger range: <oldest> - <latest>` (the start fell out of retention). */
export class LedgerRangeError extends RpcError {
  readonly oldest: number;
  readonly latest: number;
  constructor(message: string, oldest: number, latest: number) {
    super(-32600, message);
    this.name = "LedgerRangeError";
    this.oldest = oldest;
    this.latest = latest;
  }
}

export class RpcUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RpcUnavailableError";
  }
}

export interface RawEvent {
  type: string;
  ledger: number;
  ledgerClosedAt: string;
  contractId: string;
  id: string;
  operationIndex?: number;
  transactionIndex?: number;
  txHash: string;
  inSuccessfulContractCall: boolean;
  topic: string[];
  value: string;
}

export interface EventsPage {
  events: RawEvent[];
  cursor: string;
  latestLedger: number;
  oldestLedger: number;
  latestLedgerCloseTime: string;
  oldestLedgerCloseTime: string;
}

export interface EventFilter {
  type?: "contract" | "system";
  contractIds?: string[];
  topics?: string[][];
}

export type GetEventsParams =
  | { startLedger: number; endLedger?: number; filters: EventFilter[]; limit: number }
  | { cursor: string; filters: EventFilter[]; limit: number };

export interface LatestLedger {
  id: string;
  sequence: number;
  protocolVersion: number;
  closeTime: string;
}

export interface Health {
  status: string;
  latestLedger: number;
  oldestLedger: number;
  ledgerRetentionWindow: number;
}

export interface NetworkInfo {
  passphrase: string;
  protocolVersion: number;
}

export interface LedgersPage {
  ledgers: { hash: string; sequence: number }[];
  latestLedger: number;
  oldestLedger: number;
}

export interface RpcClientOptions {
  retries?: number;
  backoffMs?: number;
  timeoutMs?: number;
  /** The longest Retry-After honoured before the next attempt (default 30 s); a longer one waits this long. */
  maxRetryAfterMs?: number;
  fetch?: typeof fetch;
  /** The pause between attempts (tests record it instead of waiting). */
  sleep?: (ms: number) => Promise<void>;
}

const RANGE_RE = /ledger range: (\d+) - (\d+)/;

export class RpcClient {
  readonly url: string;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly timeoutMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly pause: (ms: number) => Promise<void>;
  private nextId = 1;

  constructor(url: string, opts: RpcClientOptions = {}) {
    this.url = url;
    this.retries = opts.retries ?? 4;
    this.backoffMs = opts.backoffMs ?? 200;
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.maxRetryAfterMs = opts.maxRetryAfterMs ?? 30_000;
    this.fetchImpl = opts.fetch ?? fetch;
    this.pause = opts.sleep ?? sleep;
  }

  async call<T>(method: string, params?: unknown): Promise<T> {
    let lastError: unknown;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (attempt > 0) {
        // A provider that says when to come back (429/503 with Retry-After) is waited for, within a bound.
        const asked = lastError instanceof TransientHttpError ? lastError.retryAfterMs : null;
        await this.pause(
          Math.max(this.backoffMs * 2 ** (attempt - 1), Math.min(asked ?? 0, this.maxRetryAfterMs)),
        );
      }
      try {
        return await this.once<T>(method, params);
      } catch (err) {
        if (!isTransient(err)) throw err;
        lastError = err;
      }
    }
    throw new RpcUnavailableError(`${method} failed after ${this.retries + 1} attempts`, {
      cause: lastError,
    });
  }

  private async once<T>(method: string, params: unknown): Promise<T> {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: this.nextId++,
      method,
      ...(params === undefined ? {} : { params }),
    });
    const res = await this.fetchImpl(this.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (res.status >= 500 || res.status === 429) {
      await res.body?.cancel().catch(() => undefined);
      throw new TransientHttpError(res.status, retryAfterMs(res.headers.get("retry-after")));
    }
    let parsed: unknown;
    try {
      parsed = await res.json();
    } catch (err) {
      // A body cut by a proxy or a dropped connection: transient, like the reset itself.
      throw new TransientHttpError(res.status, null, { cause: err });
    }
    const json = parsed as {
      result?: T;
      error?: { code: number; message: string; data?: unknown };
    };
    if (json.error !== undefined) {
      const m = RANGE_RE.exec(json.error.message);
      if (json.error.code === -32600 && m !== null) {
        throw new LedgerRangeError(json.error.message, Number(m[1]), Number(m[2]));
      }
      throw new RpcError(json.error.code, json.error.message, json.error.data);
    }
    if (json.result === undefined) throw new RpcError(-32603, `${method}: response without result`);
    return json.result;
  }

  getEvents(params: GetEventsParams): Promise<EventsPage> {
    const { limit, filters } = params;
    const request =
      "cursor" in params
        ? { filters, pagination: { cursor: params.cursor, limit } }
        : {
            startLedger: params.startLedger,
            ...(params.endLedger === undefined ? {} : { endLedger: params.endLedger }),
            filters,
            pagination: { limit },
          };
    return this.call<EventsPage>("getEvents", request);
  }

  getLatestLedger(): Promise<LatestLedger> {
    return this.call<LatestLedger>("getLatestLedger");
  }

  getHealth(): Promise<Health> {
    return this.call<Health>("getHealth");
  }

  getNetwork(): Promise<NetworkInfo> {
    return this.call<NetworkInfo>("getNetwork");
  }

  /** One ledger's header summary (its hash), from `sequence`. */
  getLedger(sequence: number): Promise<LedgersPage> {
    return this.call<LedgersPage>("getLedgers", { startLedger: sequence, pagination: { limit: 1 } });
  }
}

class TransientHttpError extends Error {
  readonly retryAfterMs: number | null;
  constructor(status: number, retryAfter: number | null, options?: { cause?: unknown }) {
    super(status === 200 ? "malformed JSON answer" : `HTTP ${status}`, options);
    this.name = "TransientHttpError";
    this.retryAfterMs = retryAfter;
  }
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === "") return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function isTransient(err: unknown): boolean {
  if (err instanceof LedgerRangeError) return false;
  if (err instanceof RpcError) return err.code === -32603;
  // fetch failures (connection refused, reset, timeout) and 5xx answers.
  return (
    err instanceof TransientHttpError ||
    err instanceof TypeError ||
    (err instanceof Error && err.name === "TimeoutError")
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Ledger sequence encoded in an event id or a getEvents cursor (`%019d-%010d`, TOID in the first part). */
export function ledgerOfCursor(cursor: string): number {
  const toid = cursor.split("-")[0];
  if (toid === undefined || !/^\d+$/.test(toid)) throw new RangeError(`not an event cursor: ${cursor}`);
  return Number(BigInt(toid) >> 32n);
}
