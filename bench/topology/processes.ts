// The topology suite's `namereg` processes (suite.ts): each started in a group of its own, its output read for
// what it says of the writer lock (holding it, losing it, standing by) and kept for the message of a failure.
import type { ChildProcess } from "node:child_process";
import { spawnInGroup } from "@namereg/server/testing";

const CLI = new URL(import.meta.resolve("@namereg/server/cli")).pathname;

export interface Child {
  name: string;
  child: ChildProcess;
  /** How many times it logged that it holds the writer lock. */
  activeCount(): number;
  /** How often it logged losing the writer lock. */
  lostCount(): number;
  /** The writer epoch it last logged taking, if any. */
  epoch(): number | null;
  /** What it last logged: holding the writer lock, or waiting as a standby. */
  role(): "writer" | "standby" | null;
  tail(): string;
  exited: Promise<number | null>;
}

export function startProcess(name: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const child = spawnInGroup(process.execPath, [CLI, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let active = 0;
  let lost = 0;
  let epoch: number | null = null;
  let role: "writer" | "standby" | null = null;
  const see = (text: string) => {
    active += text.split("indexer active").length - 1;
    lost += text.split("lost its writer lock").length - 1;
    for (const m of text.matchAll(/"epoch":(\d+)[^\n]*indexer active/g)) epoch = Number(m[1]);
    const [w, s] = [text.lastIndexOf("indexer active"), text.lastIndexOf("waiting as a standby")];
    if (w !== -1 || s !== -1) role = w > s ? "writer" : "standby";
  };
  // Read by whole lines, one stream at a time: a pipe read ends wherever the reader's buffer does (64 KiB), which
  // cuts a line whenever this process fell behind a burst of log lines, and a phrase cut in two is never counted.
  const collector = () => {
    let partial = "";
    return (text: string) => {
      const lines = partial + text;
      const end = lines.lastIndexOf("\n") + 1;
      partial = lines.slice(end);
      if (end > 0) see(lines.slice(0, end));
      out = (out + text).slice(-200_000);
    };
  };
  child.stdout?.setEncoding("utf8").on("data", collector());
  child.stderr?.setEncoding("utf8").on("data", collector());
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    name,
    child,
    activeCount: () => active,
    lostCount: () => lost,
    epoch: () => epoch,
    role: () => role,
    tail: () => out.slice(-2000),
    exited,
  };
}
