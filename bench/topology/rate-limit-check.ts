// The topology suite's first check (suite.ts): the global rate limit shared by the replicas through Redis. One
// client address sends 1.5× the limit within one window, alternating across the replicas; the number admitted
// must be within ±2% of the limit, the replicas' RateLimit headers must agree, and Redis must hold the one count
// of every request.
import { Redis } from "ioredis";
import { type Answer, client } from "./http-client.ts";

export interface RateLimitResult {
  limit: number;
  sent: number;
  admitted: number;
  limited: number;
  other: number;
  /** Requests counted in Redis under the client's key: every request, through either replica. */
  redisCount: number;
  windowSeconds: number;
  /** Per replica: admitted requests, and the RateLimit-Limit values it sent. */
  perReplica: { admitted: number; limited: number; limitHeaders: string[] }[];
  /** Header disagreements across replicas (Remaining not one count, Reset apart, Limit differing, …). */
  headerProblems: string[];
  ok: boolean;
}

export async function rateLimitCheck(
  replicas: string[],
  limit: number,
  redisUrl: string,
  serviceName: string,
): Promise<RateLimitResult> {
  // An address of its own on the loopback network (127.0.0.0/8 is all local), so the limit counts this client
  // alone and the other checks' clients are not limited.
  const ip = "127.0.0.2";
  const http = client(ip);
  const sent = Math.ceil(limit * 1.5);
  const paths = ["/health", "/v1/resolve/bulk0/n0", "/v1/status"];
  const problems: string[] = [];
  const answers: (Answer & { replica: number })[] = [];
  const send = async (i: number) => {
    const replica = i % replicas.length;
    const answer = await http.get(`${replicas[replica]}${paths[i % paths.length]}`);
    answers[i] = { ...answer, replica };
  };
  const started = performance.now();
  // The first requests one at a time: RateLimit-Remaining must count down by one whichever replica answers.
  const sequential = Math.min(20, limit);
  for (let i = 0; i < sequential; i++) {
    await send(i);
    const remaining = Number(answers[i]?.headers["ratelimit-remaining"]);
    if (remaining !== limit - i - 1)
      problems.push(
        `request ${i + 1} (replica ${(answers[i]?.replica ?? 0) + 1}): RateLimit-Remaining ${remaining}, expected ${limit - i - 1}`,
      );
  }
  // The rest 8 at a time.
  let next = sequential;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < sent) await send(next++);
    }),
  );
  const windowSeconds = (performance.now() - started) / 1000;
  if (windowSeconds >= 60)
    problems.push(`the requests took ${windowSeconds.toFixed(1)} s, longer than one window`);
  const perReplica = replicas.map(() => ({ admitted: 0, limited: 0, limitHeaders: new Set<string>() }));
  let admitted = 0;
  let limited = 0;
  let other = 0;
  const resets: number[][] = replicas.map(() => []);
  for (const a of answers) {
    const r = perReplica[a.replica] as (typeof perReplica)[number];
    r.limitHeaders.add(String(a.headers["ratelimit-limit"]));
    resets[a.replica]?.push(Number(a.headers["ratelimit-reset"]));
    if (a.status === 429) {
      limited++;
      r.limited++;
      if (!(Number(a.headers["retry-after"]) > 0)) problems.push("a 429 without Retry-After");
      if (a.headers["ratelimit-remaining"] !== "0")
        problems.push(`a 429 with RateLimit-Remaining ${a.headers["ratelimit-remaining"]}`);
      if (!a.body.includes('"rate_limited"')) problems.push(`a 429 with body ${a.body.slice(0, 80)}`);
    } else if (a.status === 200) {
      admitted++;
      r.admitted++;
    } else other++;
  }
  for (const [i, r] of perReplica.entries())
    if (r.limitHeaders.size !== 1 || !r.limitHeaders.has(String(limit)))
      problems.push(`replica ${i + 1} sent RateLimit-Limit ${[...r.limitHeaders].join(",")}`);
  // Both replicas read the window's reset from the one Redis key: their last answers agree within a second.
  const lastResets = resets.map((r) => r.at(-1) ?? Number.NaN);
  if (Math.max(...lastResets) - Math.min(...lastResets) > 1)
    problems.push(`RateLimit-Reset apart across replicas: ${lastResets.join(" vs ")}`);
  // The admitted ones must be the first `limit` (a later request admitted means the count was not shared).
  const lastAdmitted = answers.findLastIndex((a) => a.status === 200);
  if (lastAdmitted >= limit + Math.ceil(limit * 0.02))
    problems.push(`request ${lastAdmitted + 1} was admitted, past the limit`);
  const redis = new Redis(redisUrl);
  let redisCount = -1;
  try {
    redisCount = Number(await redis.get(`${serviceName}:ratelimit:${ip}`));
  } finally {
    redis.disconnect();
  }
  if (redisCount !== sent) problems.push(`Redis counted ${redisCount} requests of ${sent}`);
  http.close();
  return {
    limit,
    sent,
    admitted,
    limited,
    other,
    redisCount,
    windowSeconds,
    perReplica: perReplica.map((r) => ({
      admitted: r.admitted,
      limited: r.limited,
      limitHeaders: [...r.limitHeaders],
    })),
    headerProblems: problems,
    ok:
      Math.abs(admitted - limit) <= limit * 0.02 &&
      other === 0 &&
      admitted + limited === sent &&
      perReplica.every((r) => r.admitted > 0 && r.limited > 0) &&
      problems.length === 0,
  };
}
