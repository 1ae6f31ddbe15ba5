// Test instrumentation, off unless the environment names a directory in NAMEREG_ANSWER_LOG (the test setup file
// packages/server/test/answers-match-document.ts sets it for every test file, and the `namereg` processes a test
// starts inherit it). Then every answer of a documented route, and every answer no route matched, is appended as
// one JSON line to `<dir>/<pid>.jsonl`; the setup file checks them against docs/openapi.json when the file ends
// (test/fixtures/openapi-answers.ts), so an answer the document does not describe fails the suite that saw it.
// The appends are synchronous: a process killed at the end of its test has written every answer it sent.
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** The environment variable naming the directory answers are written to. */
export const ANSWER_LOG_VARIABLE = "NAMEREG_ANSWER_LOG";

/** One answer as recorded: `route` is the route's pattern (`/v1/resolve/:namespace/:label`), null when none matched. */
export interface RecordedAnswer {
  readonly method: string;
  readonly route: string | null;
  readonly status: number;
  readonly contentType: string | null;
  /** The parsed JSON body, the text of another body, or undefined for a stream (not checked). */
  readonly body?: unknown;
}

/** Writes answers to the process's log file. */
export type AnswerSink = (answer: RecordedAnswer) => void;

/** The sink for this process, or null when answers are not being recorded. */
export function answerSink(env: NodeJS.ProcessEnv = process.env): AnswerSink | null {
  const dir = env[ANSWER_LOG_VARIABLE];
  if (dir === undefined || dir === "") return null;
  const file = join(dir, `${process.pid}.jsonl`);
  return (answer) => appendFileSync(file, `${JSON.stringify(answer)}\n`);
}

/** The body as the document describes it: parsed when JSON, text otherwise, undefined for a stream. */
export function bodyOf(contentType: string | null, payload: unknown): unknown {
  const text =
    typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString("utf8") : undefined;
  if (text === undefined) return undefined;
  if (contentType?.startsWith("application/json") !== true) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Records every answer `app` sends from the routes registered until `seal()` is called (the service's own, as
 * buildApp registers them; a test's fixture routes added later are not the document's business), but those of
 * hidden routes (the web page, /docs, /openapi.json), and every answer no route matched.
 */
export function installAnswerLog(app: FastifyInstance, sink: AnswerSink): { seal(): void } {
  const own = new Set<string>();
  let sealed = false;
  app.addHook("onRoute", (route) => {
    if (sealed || (route.schema as { hide?: boolean } | undefined)?.hide === true) return;
    for (const method of [route.method].flat()) own.add(`${method} ${route.url}`);
  });
  // A route that takes the socket over (reply.hijack(): the change stream) sends its answer past onSend; it is
  // recorded when its connection ends, by status and type (a stream's body is not checked).
  const sent = new WeakSet<FastifyReply>();
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    reply.raw.once("close", () => {
      const route = request.routeOptions.url ?? null;
      if (sent.has(reply) || !reply.raw.headersSent || route === null) return;
      if (!own.has(`${request.method} ${route}`)) return;
      const type = reply.raw.getHeader("content-type");
      sink({
        method: request.method,
        route,
        status: reply.raw.statusCode,
        contentType: typeof type === "string" ? type : null,
      });
    });
  });
  app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    sent.add(reply);
    const route = request.routeOptions.url ?? null;
    if (route !== null && !own.has(`${request.method} ${route}`)) return payload;
    const type = reply.getHeader("content-type");
    const contentType = typeof type === "string" ? type : null;
    sink({
      method: request.method,
      route,
      status: reply.statusCode,
      contentType,
      body: bodyOf(contentType, payload),
    });
    return payload;
  });
  return {
    seal: () => {
      sealed = true;
    },
  };
}

/**
 * `env` for a process a test starts (test/fixtures/child-processes.ts): a `namereg` process records its answers
 * where the test's own go, whatever environment the test gives it, so they are checked with the file's.
 */
export function inheritAnswerLog(env: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv | undefined {
  const dir = process.env[ANSWER_LOG_VARIABLE];
  if (env === undefined || dir === undefined || ANSWER_LOG_VARIABLE in env) return env;
  return { ...env, [ANSWER_LOG_VARIABLE]: dir };
}
