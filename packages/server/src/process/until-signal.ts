// Shutdown for the long-running subcommands: SIGINT/SIGTERM, or the launcher (npm) exiting, watched through /proc.
import { readFileSync } from "node:fs";

/** Resolves on the first SIGINT or SIGTERM, or when the npm process that started this one exits. */
export function untilSignal(): { signal: AbortSignal; done: Promise<string> } {
  const controller = new AbortController();
  const done = new Promise<string>((resolve) => {
    let watch: NodeJS.Timeout | undefined;
    const on = (name: string) => () => {
      clearInterval(watch);
      controller.abort();
      resolve(name);
    };
    // `on`, not `once`: a second signal while the shutdown runs (a supervisor signalling the whole group, which
    // also reaches the bin's launcher, bin/namereg.js, that passes one on) must not kill the process midway;
    // resolving again does nothing. A stop that hangs is the supervisor's to end, with SIGKILL.
    process.on("SIGINT", on("SIGINT"));
    process.on("SIGTERM", on("SIGTERM"));
    // Started through `npx namereg …` or `npm start`, this process runs under npm (through `sh -c`), and npm does
    // not pass a SIGTERM on: a supervisor stopping npm would leave the API or the writer running unseen, holding
    // the writer lock. The launcher gone, shut down as on SIGTERM.
    const launcher = launcherOf(process.ppid);
    watch = setInterval(() => {
      if (launcherGone(launcher)) on("launcher exited")();
    }, 1000);
    watch.unref();
  });
  return { signal: controller.signal, done };
}

/** This process's parent and, when that is a shell, the shell's parent (npm, which ran `sh -c namereg …`). */
interface Launcher {
  readonly parent: number;
  readonly grandparent: number | null;
}

function launcherOf(parent: number): Launcher {
  const shell = /^(sh|dash|bash)$/.test(procField(parent, "comm") ?? "");
  return { parent, grandparent: shell ? parentOf(parent) : null };
}

/** Re-parented, or our shell was: whoever started us has exited. */
function launcherGone({ parent, grandparent }: Launcher): boolean {
  if (process.ppid !== parent) return true;
  return grandparent !== null && parentOf(parent) !== grandparent;
}

/** The parent pid of `pid` from /proc (Linux); null where /proc cannot tell, which never reads as a change. */
function parentOf(pid: number): number | null {
  const stat = procField(pid, "stat");
  if (stat === null) return null;
  // The command name may hold spaces and parentheses; the fields after its closing ')' are fixed: state, ppid.
  const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  return Number.isInteger(ppid) ? ppid : null;
}

function procField(pid: number, file: "stat" | "comm"): string | null {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8").trim();
  } catch {
    return null;
  }
}
