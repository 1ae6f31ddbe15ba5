import pino from "pino";
import { describe, expect, it } from "vitest";
import { connectRedis } from "./redis.ts";

describe("connectRedis", () => {
  it("fails startup, and stops retrying, when Redis cannot be reached", async () => {
    const lines: string[] = [];
    const log = pino({ level: "warn" }, { write: (line: string) => void lines.push(line) });
    await expect(connectRedis("redis://:pw@127.0.0.1:1", log)).rejects.toThrow(
      "cannot connect to Redis at redis://:***@127.0.0.1:1",
    );
    expect(lines.join("")).not.toContain(":pw@");
  });
});
