// The webhook deliverer (docs/webhooks.md "Delivery"): each pass turns new outbox changes into deliveries
// (store.ts `fanOut`), then attempts the head delivery of every endpoint that is due, not already in flight and
// within its namespace's rate. An endpoint's deliveries go strictly one after another in outbox order: the next
// is attempted only once the previous is recorded delivered or given up, which is what keeps them ordered across
// crashes too. A send happens before its record, so a crash in between repeats it with the same webhook-id:
// at least once, never lost.
import type { Config } from "../config/index.ts";
import type { Db } from "../db/types.ts";
import { retryPause } from "../watchers/run-passes.ts";
import { EndpointDispatchers } from "./endpoint-dispatchers.ts";
import { NamespaceRate } from "./rate.ts";
import { verdictOf } from "./schedule.ts";
import { sendAttempt } from "./send.ts";
import { signedHeaders } from "./signing.ts";
import {
  type AttemptRecord,
  fanOut,
  type HeadDelivery,
  headDeliveries,
  markPass,
  recordAttempt,
} from "./store.ts";
import { hostOf, type Resolver, systemResolver } from "./target-policy.ts";

/** Outbox changes read per endpoint per pass. */
const FAN_OUT_BATCH = 500;
/**
 * Endpoints attempted at once, in all and of one namespace: each attempt is one connection of its own, so one
 * slow receiver holds only its own lane, and a namespace's many hanging endpoints leave the others theirs.
 */
export const MAX_IN_FLIGHT = 256;
export const MAX_IN_FLIGHT_PER_NAMESPACE = 64;
/** The pass time is written at most this often (it only feeds the status component's age). */
const PASS_MARK_EVERY_MS = 5000;

export type WebhookSettings = Config["webhooks"];

export interface DelivererDeps {
  readonly db: Db;
  readonly settings: WebhookSettings;
  /** From takeDelivererEpoch, after the deliverer's lock was taken. */
  readonly epoch: number;
  readonly now?: () => Date;
  readonly resolve?: Resolver;
  readonly userAgent?: string;
  readonly onError?: (error: unknown) => void;
  /** Told of every recorded attempt: `delivered`, `retry` (failed, tried again later) or `failed` (given up). */
  readonly onAttempt?: (attempt: {
    readonly outcome: "delivered" | "retry" | "failed";
    readonly durationMs: number;
  }) => void;
}

export interface PassSummary {
  /** Deliveries made from new changes. */
  readonly queued: number;
  /** Attempts started. */
  readonly started: number;
}

export class WebhookDeliverer {
  readonly #deps: DelivererDeps;
  readonly #now: () => Date;
  readonly #dispatchers: EndpointDispatchers;
  readonly #rate: NamespaceRate;
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #inFlightByNamespace = new Map<string, number>();
  /** Attempts finished per endpoint: a head read before one of its endpoint's attempts finished is stale. */
  readonly #finished = new Map<string, number>();
  #lastMark = Number.NEGATIVE_INFINITY;
  #wake: (() => void) | null = null;
  #woken = false;
  /** New outbox changes may be waiting (a notification, the poll timer, the start): the next pass fans out. */
  #changes = true;

  constructor(deps: DelivererDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? (() => new Date());
    this.#rate = new NamespaceRate(deps.settings.ratePerMinute);
    this.#dispatchers = new EndpointDispatchers({
      policy: deps.settings,
      resolve: deps.resolve ?? systemResolver,
      connectTimeoutMs: deps.settings.timeoutMs,
    });
  }

  /**
   * Fans out new changes (when any may have come, or `fanOut` says so) and starts the due head deliveries; does
   * not wait for their attempts.
   */
  async pass(options: { fanOut?: boolean } = {}): Promise<PassSummary> {
    const { db, epoch } = this.#deps;
    const now = this.#now();
    let queued = 0;
    if (options.fanOut ?? this.#changes) {
      this.#changes = false;
      const fanned = await fanOut(db, epoch, now, FAN_OUT_BATCH);
      queued = fanned.created;
      if (fanned.more) this.#changes = true;
    }
    let started = 0;
    const finishedBefore = new Map(this.#finished);
    for (const head of await headDeliveries(db)) {
      if (this.#inFlight.size >= MAX_IN_FLIGHT) break;
      if (this.#inFlight.has(head.endpointId)) continue;
      const ofNamespace = this.#inFlightByNamespace.get(head.namespace) ?? 0;
      if (ofNamespace >= MAX_IN_FLIGHT_PER_NAMESPACE) continue;
      // Its attempt finished while the heads were read: this head may be the delivery just recorded, and sending
      // it again would be a needless duplicate. The pass that attempt woke reads it afresh.
      if (this.#finished.get(head.endpointId) !== finishedBefore.get(head.endpointId)) continue;
      if (head.nextAttemptAt !== null && head.nextAttemptAt.getTime() > now.getTime()) continue;
      if (!this.#rate.take(head.namespace, now.getTime())) continue;
      started++;
      this.#inFlightByNamespace.set(head.namespace, ofNamespace + 1);
      const attempt = this.#attempt(head)
        .catch((error: unknown) => this.#deps.onError?.(error))
        .finally(() => {
          this.#finished.set(head.endpointId, (this.#finished.get(head.endpointId) ?? 0) + 1);
          this.#inFlight.delete(head.endpointId);
          const left = (this.#inFlightByNamespace.get(head.namespace) ?? 1) - 1;
          if (left === 0) this.#inFlightByNamespace.delete(head.namespace);
          else this.#inFlightByNamespace.set(head.namespace, left);
          this.wake();
        });
      this.#inFlight.set(head.endpointId, attempt);
    }
    this.#dispatchers.sweep();
    if (now.getTime() - this.#lastMark >= PASS_MARK_EVERY_MS) {
      await markPass(db, epoch, now);
      this.#lastMark = now.getTime();
    }
    return { queued, started };
  }

  /** Resolves when every attempt started so far has been recorded (or has failed to be). */
  async settle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight.values()]);
  }

  /** A change was written (the outbox's notification): the next pass fans out, now. */
  changed(): void {
    this.#changes = true;
    this.wake();
  }

  /** Makes a waiting `run` pass again now (an attempt finished: its endpoint's next delivery may go). */
  wake(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /** Passes until `stop`, then waits for the attempts in flight (each ends within WEBHOOK_TIMEOUT_MS). */
  async run(stop: AbortSignal): Promise<void> {
    const onAbort = () => this.#wake?.();
    stop.addEventListener("abort", onAbort);
    // Failing passes in a row (the database away): the pause grows from the poll interval to a minute.
    let failures = 0;
    try {
      while (!stop.aborted) {
        this.#woken = false;
        try {
          await this.pass();
          failures = 0;
        } catch (error) {
          failures++;
          this.#deps.onError?.(error);
          if (isFenced(error)) break;
        }
        if (stop.aborted || this.#woken) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(
            () => {
              // A notification can be missed (a reconnect); the poll fans out regardless.
              this.#changes = true;
              resolve();
            },
            retryPause(this.#deps.settings.pollMs, Math.max(1, failures)),
          );
          this.#wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.#wake = null;
      }
    } finally {
      stop.removeEventListener("abort", onAbort);
      await this.settle();
      await this.#dispatchers.close();
    }
  }

  async #attempt(head: HeadDelivery): Promise<void> {
    const { settings } = this.#deps;
    // Taken as the request is handed to the endpoint's own idle connection, where nothing queues before it.
    const attemptedAt = this.#now();
    const secrets = [head.secret];
    if (
      head.previousSecret !== null &&
      head.previousSecretUntil !== null &&
      head.previousSecretUntil.getTime() > attemptedAt.getTime()
    ) {
      secrets.push(head.previousSecret);
    }
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const schemeRefusal = refusedScheme(head.url, settings.allowHttp);
    const result =
      schemeRefusal !== null
        ? { statusCode: null, durationMs: 0, error: schemeRefusal, excerpt: null, retryAfterMs: null }
        : await this.#dispatchers.with(head.endpointId, (dispatcher) =>
            sendAttempt({
              dispatcher,
              url: head.url,
              headers: signedHeaders(secrets, head.id, timestamp, head.body),
              body: head.body,
              timeoutMs: settings.timeoutMs,
              now: this.#now,
              userAgent: this.#deps.userAgent ?? "namereg-webhooks",
            }),
          );
    const verdict = verdictOf(result, head.attempts + 1, settings.retryScheduleMs);
    const failingSince = head.failingSince ?? attemptedAt;
    let disable: string | null = null;
    let outcome: AttemptRecord["outcome"];
    if (verdict.kind === "delivered") {
      outcome = { kind: "delivered" };
    } else if (verdict.kind === "gone") {
      disable = "the receiver answered 410 Gone";
      outcome = { kind: "failed", reason: disable };
    } else if (verdict.kind === "retry") {
      outcome = { kind: "retry", nextAttemptAt: new Date(attemptedAt.getTime() + verdict.delayMs) };
    } else {
      outcome = { kind: "failed", reason: verdict.reason };
    }
    if (disable === null && verdict.kind !== "delivered") {
      const failingMs = attemptedAt.getTime() - failingSince.getTime();
      if (failingMs >= settings.disableAfterMs) {
        disable = `failing for ${describeMs(settings.disableAfterMs)}: no delivery has succeeded since ${failingSince.toISOString()}`;
        outcome = { kind: "failed", reason: disable };
      }
    }
    await recordAttempt(
      this.#deps.db,
      this.#deps.epoch,
      {
        deliveryId: head.id,
        endpointId: head.endpointId,
        attemptedAt,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
        responseExcerpt: result.excerpt,
        outcome,
        disable,
      },
      head.failingSince,
    );
    this.#deps.onAttempt?.({ outcome: outcome.kind, durationMs: result.durationMs });
  }
}

/** An http:// target stored while WEBHOOK_ALLOW_HTTP was on is not sent to once it is off. */
function refusedScheme(url: string, allowHttp: boolean): string | null {
  const parsed = new URL(url);
  if (parsed.protocol === "https:" || (allowHttp && parsed.protocol === "http:")) return null;
  return `target refused: ${parsed.protocol}//${hostOf(parsed)} is not https (WEBHOOK_ALLOW_HTTP is off)`;
}

function describeMs(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, "day"],
    [3_600_000, "hour"],
    [60_000, "minute"],
    [1000, "second"],
  ];
  for (const [size, unit] of units) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}${ms / size === 1 ? "" : "s"}`;
  }
  return `${ms} ms`;
}

function isFenced(error: unknown): boolean {
  return error instanceof Error && error.name === "DelivererFencedError";
}
