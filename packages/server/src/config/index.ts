export type { Config, ContractConfig, ContractName, LogLevel, Role } from "./config.ts";
export { describeConfig, REDACTED } from "./describe.ts";
export { type ExitIo, loadConfigOrExit } from "./exit.ts";
export { ConfigError, type ConfigProblem, type Env, type LoadOptions, loadConfig } from "./load.ts";
