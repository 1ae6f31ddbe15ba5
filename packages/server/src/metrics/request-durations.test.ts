import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { RequestDurations } from "./request-durations.ts";

const BUCKETS = [0.001, 0.01, 0.1, 1];
const NAME = "t_request_duration_seconds";
const HELP = "test durations";

/** The same observations through prom-client's Histogram and through RequestDurations, as /metrics text. */
async function both(observations: [route: string, status: string, seconds: number][]) {
  const theirs = new Registry();
  const histogram = new Histogram({
    name: NAME,
    help: HELP,
    labelNames: ["route", "method", "status"] as const,
    buckets: BUCKETS,
    registers: [theirs],
  });
  const ours = new Registry();
  const durations = new RequestDurations(NAME, HELP, BUCKETS, ours);
  for (const [route, status, seconds] of observations) {
    histogram.observe({ route, method: "GET", status }, seconds);
    durations.observe({ route, method: "GET", status }, seconds);
  }
  return { theirs: await theirs.metrics(), ours: await ours.metrics(), durations };
}

describe("RequestDurations", () => {
  it("prints exactly what prom-client's Histogram prints for the same observations", async () => {
    const { theirs, ours } = await both([
      ["/v1/resolve/:namespace/:label", "200", 0.0004],
      ["/v1/resolve/:namespace/:label", "200", 0.001], // on a bound: counted in that bucket
      ["/v1/resolve/:namespace/:label", "200", 0.05],
      ["/v1/resolve/:namespace/:label", "429", 2.5], // above every bound: +Inf only
      ["/health", "200", 0.003],
    ]);
    expect(ours).toBe(theirs);
    expect(ours).toContain(
      't_request_duration_seconds_bucket{le="0.001",route="/v1/resolve/:namespace/:label",method="GET",status="200"} 2',
    );
    expect(ours).toContain(
      't_request_duration_seconds_bucket{le="+Inf",route="/v1/resolve/:namespace/:label",method="GET",status="429"} 1',
    );
    expect(ours).toContain('t_request_duration_seconds_count{route="/health",method="GET",status="200"} 1');
  });

  it("counts through a kept cell as through observe, and lists a cell only once it has observed", async () => {
    const { durations } = await both([]);
    const cell = durations.cell({ route: "/r", method: "GET", status: "200" });
    expect((await durations.get()).values).toEqual([]);
    cell.observe(0.02);
    durations.observe({ route: "/r", method: "GET", status: "200" }, 0.5);
    const values = (await durations.get()).values;
    const count = values.find((v) => v.metricName === `${NAME}_count`);
    const sum = values.find((v) => v.metricName === `${NAME}_sum`);
    expect(count?.value).toBe(2);
    expect(sum?.value).toBeCloseTo(0.52, 10);
    expect(values.filter((v) => v.metricName === `${NAME}_bucket`).map((v) => v.value)).toEqual([
      0, 0, 1, 2, 2,
    ]);
    durations.reset();
    expect((await durations.get()).values).toEqual([]);
  });
});
