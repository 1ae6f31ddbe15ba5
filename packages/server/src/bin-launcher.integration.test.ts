// `node_modules/.bin/namereg` under a supervisor whose PATH finds the machine's own, older `node` first (Debian's
// Node 20): the bin runs the CLI on the workspace's Node 24, passes SIGTERM on and exits as the CLI exits
// (docs/operations.md "Running under a supervisor").
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runInGroup, spawnInGroup } from "../test/fixtures/child-processes.ts";
import { BACKSTOP_MS, waitForProgress } from "../test/fixtures/progress.ts";

const BIN = fileURLToPath(new URL("../../../node_modules/.bin/namereg", import.meta.url));

/** PATH without the workspace's bin folders (npm puts its Node 24 first there), as a supervisor has it. */
const MACHINE_PATH = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((dir) => !dir.includes("node_modules"))
  .join(delimiter);
const machineNode = MACHINE_PATH.split(delimiter)
  .map((dir) => join(dir, "node"))
  .find((path) => existsSync(path));

describe("the namereg bin under the machine's node", { timeout: BACKSTOP_MS }, () => {
  it("finds a node on the machine's PATH to run it with", () => {
    expect(machineNode).toBeDefined();
  });

  it("runs the CLI on the workspace's Node 24", async () => {
    const run = await runInGroup(machineNode ?? "node", [BIN, "webhooks", "--help"], {
      env: { ...process.env, PATH: MACHINE_PATH },
    });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toMatch(/^usage: namereg webhooks <command>\n/);
  });

  it("passes SIGTERM on to a long-running command and exits 0 when it has", async () => {
    const launcher = spawnInGroup(machineNode ?? "node", [BIN, "webhooks", "deliver"], {
      env: { ...process.env, PATH: MACHINE_PATH, DATABASE_URL: "memory://", LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    launcher.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    await waitForProgress(() => out.includes('"msg":"webhook deliverer active"'), "the deliverer running");
    const cli = (
      JSON.parse(out.split("\n").find((l) => l.includes("webhook deliverer active")) ?? "{}") as {
        pid: number;
      }
    ).pid;
    // The CLI runs on Node 24, whichever process it is (the launcher itself on a machine whose node is 24).
    expect(
      Number(execFileSync(`/proc/${cli}/exe`, ["-p", "process.versions.node.split('.')[0]"]).toString()),
    ).toBe(24);
    const exited = new Promise<number | null>((r) => launcher.once("exit", (code) => r(code)));
    launcher.kill("SIGTERM"); // the launcher alone, as a supervisor stopping its main process does
    expect(await exited).toBe(0);
    expect(existsSync(`/proc/${cli}`) && !readFileSync(`/proc/${cli}/stat`, "utf8").includes(") Z ")).toBe(
      false,
    );
  });
});
