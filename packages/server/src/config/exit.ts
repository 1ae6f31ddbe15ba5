import type { Config } from "./config.ts";
import { ConfigError, type Env, type LoadOptions, loadConfig } from "./load.ts";

export interface ExitIo {
  readonly write: (text: string) => void;
  readonly exit: (code: number) => void;
}

const processIo: ExitIo = {
  write: (text) => process.stderr.write(text),
  exit: (code) => process.exit(code),
};

/** For the command line: a bad configuration is the operator's to fix, so print what is wrong and exit 1. */
export function loadConfigOrExit(env: Env = process.env, options: LoadOptions = {}, io = processIo): Config {
  try {
    return loadConfig(env, options);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.write(`${error.message}\n`);
    io.exit(1);
    // Reached only when `io.exit` returns, as in tests.
    throw error;
  }
}
