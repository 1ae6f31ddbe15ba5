// A child process for a test: in its own process group (so npm's and node's own children go with it), killed as a
// group when it outlives its deadline or when the test file ends, its output collected. Never left running.
import { spawn } from "node:child_process";

export interface ChildResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

const running = new Set<number>();

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Kills every group still running (afterAll, and on the test runner's exit). */
export function killChildren(): void {
  for (const pid of running) killGroup(pid);
  running.clear();
}
process.once("exit", killChildren);

export function runChild(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const pid = child.pid;
    if (pid === undefined) {
      reject(new Error(`${command} did not start`));
      return;
    }
    running.add(pid);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      killGroup(pid);
      reject(
        new Error(`${command} ${args.join(" ")} ran past ${options.timeoutMs} ms\n${stdout}\n${stderr}`),
      );
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      running.delete(pid);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      // Whatever the child left behind in its group goes too.
      killGroup(pid);
      running.delete(pid);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
