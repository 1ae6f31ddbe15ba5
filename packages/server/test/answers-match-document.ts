// Vitest setup file (every test file, both projects): every answer the file's apps send — built in the worker or
// started as `namereg` processes, which inherit the variable — is recorded (src/api/plugins/answer-log.ts) and,
// when the file ends, checked against docs/openapi.json (fixtures/openapi-answers.ts). An answer whose status, error
// code or body the document does not describe fails the file that saw it, naming the operation. Registered before
// the file's own hooks, this runs after them, once its processes have stopped.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { ANSWER_LOG_VARIABLE } from "../src/api/plugins/answer-log.ts";

const dir = mkdtempSync(join(tmpdir(), "namereg-answers-"));
process.env[ANSWER_LOG_VARIABLE] = dir;

/** The most violations one failure lists; the rest are counted. */
const SHOWN = 25;

afterAll(async () => {
  try {
    // A file whose apps answered nothing (most unit files) pays nothing: the checker is loaded only when needed.
    if (readdirSync(dir).length === 0) return;
    const { AnswerChecker, readAnswerLog, violations } = await import("./fixtures/openapi-answers.ts");
    const answers = readAnswerLog(dir);
    if (answers.length === 0) return;
    const found = violations(AnswerChecker.fromCommitted(), answers);
    if (found.length > 0) {
      const more = found.length > SHOWN ? `\n  … and ${found.length - SHOWN} more` : "";
      throw new Error(
        `${found.length} answer(s) of ${answers.length} not described by docs/openapi.json:\n  ${found.slice(0, SHOWN).join("\n  ")}${more}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    delete process.env[ANSWER_LOG_VARIABLE];
  }
});
