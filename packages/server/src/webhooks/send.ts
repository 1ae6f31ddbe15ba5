// One delivery attempt over HTTP: POST the body with its signed headers through the deliverer's Agent
// (safe-dispatcher.ts), wait at most `timeoutMs` for the whole exchange, keep at most EXCERPT_BYTES of the answer
// (the rest is never read into memory, let alone stored), and report what happened as data, never as a throw.

import type { Dispatcher } from "undici";
import { request } from "undici";
import { retryAfterMs } from "./schedule.ts";

/** At most this much of a receiver's answer is kept, for the owner's delivery log. */
export const EXCERPT_BYTES = 1024;

export interface AttemptResult {
  readonly statusCode: number | null;
  readonly durationMs: number;
  /** What went wrong without an answer (timeout, refused target, connection error); null when one came. */
  readonly error: string | null;
  readonly excerpt: string | null;
  readonly retryAfterMs: number | null;
}

export interface SendOptions {
  readonly dispatcher: Dispatcher;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
  readonly now: () => Date;
  readonly userAgent: string;
}

export async function sendAttempt(o: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(o.timeoutMs);
  try {
    const response = await request(o.url, {
      method: "POST",
      dispatcher: o.dispatcher,
      signal,
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
      headers: { ...o.headers, "content-type": "application/json", "user-agent": o.userAgent },
      body: o.body,
    });
    const excerpt = await readExcerpt(response.body);
    return {
      statusCode: response.statusCode,
      durationMs: elapsed(),
      error: null,
      excerpt,
      retryAfterMs: retryAfterMs(response.headers["retry-after"], o.now()),
    };
  } catch (error) {
    return {
      statusCode: null,
      durationMs: elapsed(),
      error: signal.aborted ? `timed out after ${o.timeoutMs} ms` : describe(error),
      excerpt: null,
      retryAfterMs: null,
    };
  }
}

/** The first EXCERPT_BYTES of a body as text; the stream is then destroyed so the rest is never read. */
async function readExcerpt(body: Dispatcher.ResponseData["body"]): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const buffer = chunk as Buffer;
      chunks.push(buffer);
      size += buffer.length;
      if (size >= EXCERPT_BYTES) break;
    }
  } catch {
    // A body cut off after the status line: the status is the answer, what arrived of the body is enough.
  } finally {
    body.destroy();
  }
  if (size === 0) return null;
  const bytes = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES);
  // A character cut at the end is held back (stream mode), so the excerpt never exceeds EXCERPT_BYTES.
  return new TextDecoder("utf-8", { fatal: false }).decode(bytes, { stream: true });
}

function describe(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    parts.push(typeof code === "string" && !e.message.includes(code) ? `${e.message} (${code})` : e.message);
    e = e.cause;
  }
  return parts.join(": ").slice(0, 500) || "the request failed";
}
