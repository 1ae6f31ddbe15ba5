// What a `namereg` command meets the world through: its environment, its two output streams, where its log goes,
// and when a long-running command must stop. The process entry (cli.ts) hands it the real ones; a test hands it
// strings and an abort signal and runs the command in its own process (test/fixtures/cli.ts), which is seconds
// cheaper per command than starting Node, loading the service and connecting anew.
import type { DestinationStream } from "pino";
import type { Env } from "../config/index.ts";
import { untilSignal } from "./until-signal.ts";

/** A long-running command's stop: `signal` aborts, and `done` resolves with what stopped it. */
export interface Stopping {
  readonly signal: AbortSignal;
  readonly done: Promise<string>;
}

export interface CommandIo {
  /** The environment the command reads its configuration from. */
  readonly env: Env;
  /** One line of output; the newline is added, as `console.log` adds it. */
  readonly out: (line: string) => void;
  /** One line of error output (usage, refusals, what went wrong). */
  readonly err: (line: string) => void;
  /** Where the JSON log goes; absent, pino's own destination, the process's stdout. */
  readonly log?: DestinationStream;
  /** Called once by a long-running command as it starts: its stop. */
  readonly untilStopped: () => Stopping;
  /** Called before a serving command (dev, start, serve) runs: the process entry tunes V8 for serving there. */
  readonly beforeServing?: () => void;
}

/** The process's own: process.env, stdout and stderr, SIGINT/SIGTERM or the launcher exiting. */
export function processIo(): CommandIo {
  return {
    env: process.env,
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    untilStopped: untilSignal,
  };
}

/**
 * A command ending early with an exit code, its reason already written to `err` (a configuration that does not
 * load): thrown where the command cannot go on, turned into the exit code by the dispatcher (namereg.ts).
 */
export class CommandExit extends Error {
  readonly code: number;
  constructor(code: number) {
    super(`exit ${code}`);
    this.code = code;
    this.name = "CommandExit";
  }
}
