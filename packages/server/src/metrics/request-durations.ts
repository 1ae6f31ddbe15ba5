// The request-duration histogram of /metrics, by route pattern, method and status.
// Why not prom-client's Histogram: its `observe` builds a string key from the labels, looks it up in a dictionary
// object and validates the labels on every call, ~1.5 µs a request — on the fast resolve path (~20 µs a request in
// all) the largest single cost after the socket. Here a label set is resolved once to a cell (`cell()`), and
// observing is a bucket search and two additions. The exposition is prom-client's own: this object is registered in
// the service's prom-client registry and answers `get()` in the shape its Histogram does, so /metrics prints the
// same lines (request-durations.test.ts holds the two to the same text).
import type { Registry } from "prom-client";

export interface DurationLabels {
  readonly route: string;
  readonly method: string;
  readonly status: string;
}

/** The counts of one label set. */
export class DurationCell {
  /** Observations per bucket, not cumulative; the last slot is above every bound (+Inf only). */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  readonly labels: DurationLabels;
  readonly #bounds: readonly number[];

  constructor(labels: DurationLabels, bounds: readonly number[]) {
    this.labels = labels;
    this.#bounds = bounds;
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(seconds: number): void {
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && seconds > (bounds[i] as number)) i++;
    this.counts[i] = (this.counts[i] as number) + 1;
    this.sum += seconds;
    this.count++;
  }
}

/** One sample as prom-client's registry formats it (its Histogram's `get()` shape). */
interface Sample {
  readonly labels: Record<string, string | number>;
  readonly value: number;
  readonly metricName: string;
}

export class RequestDurations {
  readonly type = "histogram";
  readonly aggregator = "sum";
  readonly name: string;
  readonly help: string;
  readonly buckets: readonly number[];
  readonly #cells = new Map<string, DurationCell>();

  constructor(name: string, help: string, buckets: readonly number[], registry: Registry) {
    this.name = name;
    this.help = help;
    this.buckets = buckets;
    // The registry only calls `get()` (and `reset()`); it types its argument as one of its own metric classes.
    registry.registerMetric(this as unknown as Parameters<Registry["registerMetric"]>[0]);
  }

  /** The cell of a label set, made on first use; callers on a hot path keep it. */
  cell(labels: DurationLabels): DurationCell {
    const key = `${labels.route}\u0000${labels.method}\u0000${labels.status}`;
    let cell = this.#cells.get(key);
    if (cell === undefined) {
      cell = new DurationCell(
        { route: labels.route, method: labels.method, status: labels.status },
        this.buckets,
      );
      this.#cells.set(key, cell);
    }
    return cell;
  }

  observe(labels: DurationLabels, seconds: number): void {
    this.cell(labels).observe(seconds);
  }

  reset(): void {
    this.#cells.clear();
  }

  async get(): Promise<{
    name: string;
    help: string;
    type: "histogram";
    aggregator: "sum";
    values: Sample[];
  }> {
    const values: Sample[] = [];
    const bucket = `${this.name}_bucket`;
    for (const cell of this.#cells.values()) {
      // A cell made ahead of use is not a series until it has observed something, as in prom-client.
      if (cell.count === 0) continue;
      const { route, method, status } = cell.labels;
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += cell.counts[i] as number;
        // `le` first, as prom-client prints it.
        values.push({ labels: { le, route, method, status }, value: cumulative, metricName: bucket });
      });
      values.push({ labels: { le: "+Inf", route, method, status }, value: cell.count, metricName: bucket });
      values.push({ labels: { route, method, status }, value: cell.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { route, method, status }, value: cell.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}
