// The `namereg` subcommands: each loads the configuration once for its role, opens what it needs, and shuts
// down cleanly on SIGINT/SIGTERM (in-flight requests drain, the indexer finishes its batch, the lock is freed).
// One module per subcommand under commands/; this file is the import point the CLI and the tests use. What the
// commands open and wait on (openRuntime, untilSignal) is process plumbing, in ../process/.

export { contractEnv, devCommand } from "./commands/dev.ts";
export { indexCommand } from "./commands/index-command.ts";
export { migrateCommand } from "./commands/migrate.ts";
export { serveCommand } from "./commands/serve.ts";
export { startCommand } from "./commands/start.ts";
export { startApi } from "./commands/start-api.ts";
