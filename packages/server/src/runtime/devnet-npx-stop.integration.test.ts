// SIGTERM to the `npx namereg devnet` a person or a supervisor started stops the devnet too (CONTRIBUTING.md
// "npm does not pass SIGTERM on"): npm exits on the signal without passing it to the command it ran, and the
// devnet, its launcher gone, stops as on SIGTERM instead of listening on, orphaned.
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { spawnInGroup } from "../../test/fixtures/child-processes.ts";
import { freePort } from "../../test/fixtures/free-port.ts";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

it("stops the devnet when the npx that started it is sent SIGTERM", async () => {
  const port = await freePort();
  const adminPort = await freePort();
  const npx = spawnInGroup(
    "npx",
    ["namereg", "devnet", "--port", String(port), "--admin-port", String(adminPort)],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  npx.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  npx.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  while (!(await listening(port))) {
    if (npx.exitCode !== null) throw new Error(`npx exited early: ${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  // The launcher alone, as a supervisor stopping the service it started would.
  const exited = new Promise((resolve) => npx.once("exit", resolve));
  npx.kill("SIGTERM");
  await exited;
  // The devnet goes with it: both its ports close (the test's end would kill it otherwise, and this would hang).
  while ((await listening(port)) || (await listening(adminPort)))
    await new Promise((r) => setTimeout(r, 200));
  expect([await listening(port), await listening(adminPort)]).toEqual([false, false]);
}, 300_000);
