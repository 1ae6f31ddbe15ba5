import { spawn, execFileSync } from "node:child_process";
import { namespaceNode } from "@namereg/protocol";
import { createTestDatabase } from "@namereg/server/testing";
const database = await createTestDatabase("postgres");
await database.query(`insert into namespaces (node, label, owner, registrar, method, allocated_ledger, tx_hash) values ($1,'bench','GAAA','CBENCH','reserved',1,repeat('0',64))`, [namespaceNode("bench")]);
await database.query(`insert into names (node, namespace, label, holder, address, expires_at, generation, active, issued_ledger, issued_at, tx_hash, updated_ledger)
 select encode(sha256(decode($1,'hex') || sha256(convert_to('n'||i,'UTF8'))),'hex'), 'bench', 'n'||i, 'GBBB', 'GBBB', null, 1, true, 1000+i, now(), md5(i::text)||md5((-i)::text), 1000+i from generate_series(1,2000) i`, [namespaceNode("bench")]);
const start = (args: string[]) => new Promise<{ url: string; pid: number }>((resolve) => {
  const c = spawn(process.execPath, [new URL("./resolve/server.ts", import.meta.url).pathname, ...args], { stdio: ["ignore", "pipe", "inherit", "ipc"] });
  let out = ""; c.stdout!.on("data", (d) => { out += d; const m = /READY (\S+)/.exec(out); if (m) resolve({ url: m[1]!, pid: c.pid! }); });
});
const api = await start(["api", database.url]);
const paths = Array.from({ length: 2000 }, (_, i) => `/v1/resolve/bench/n${i + 1}`);
for (const p of paths) await (await fetch(api.url + p)).text();
const sample = await fetch(api.url + paths[0]);
const headers = [...sample.headers].filter(([k]) => !["date", "connection", "keep-alive"].includes(k)).flat();
const bare = await start(["bare", JSON.stringify({ headers, body: await sample.text() })]);
const lua = `/tmp/paths.lua`;
const fs = await import("node:fs");
fs.writeFileSync(lua, `local paths = {${paths.map((p) => `"${p}"`).join(",")}}\nrequest = function() return wrk.format("GET", paths[math.random(#paths)]) end\n`);
for (const [name, s, script] of [["api", api, lua], ["bare", bare, null], ["api", api, lua], ["bare", bare, null]] as const) {
  const tr = spawn("strace", ["-c", "-f", "-p", String(s.pid), "-o", `/tmp/strace-${name}.txt`]);
  await new Promise((r) => setTimeout(r, 500));
  const args = ["-t1", "-c50", "-d3s", ...(script ? ["-s", script] : []), s.url + "/"];
  const out = execFileSync("wrk", args).toString();
  tr.kill("SIGINT"); await new Promise((r) => tr.once("exit", r));
  console.log(name, /Requests\/sec:\s+(\S+)/.exec(out)?.[1], /(\d+) requests in/.exec(out)?.[1]);
  console.log(fs.readFileSync(`/tmp/strace-${name}.txt`, "utf8").split("\n").slice(0, 14).join("\n"));
}
process.kill(api.pid); process.kill(bare.pid);
await new Promise((r) => setTimeout(r, 1000));
await database.close();
