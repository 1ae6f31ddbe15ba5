// Holds the current faults and pushes the ones that act on the chain (frozen head, retention) into it.
import type { Chain } from "../chain/chain.ts";
import { FaultDice, type Faults, mergeFaults, NO_FAULTS, type TransportFault } from "./faults.ts";

export class FaultController {
  readonly #chain: Chain;
  #faults: Faults = NO_FAULTS;
  #dice = new FaultDice(NO_FAULTS.seed);

  constructor(chain: Chain, initial: Partial<Faults> = {}) {
    this.#chain = chain;
    this.update(initial);
  }

  get current(): Faults {
    return this.#faults;
  }

  /** Applies a partial update; throws FaultValidationError on bad input. */
  update(update: unknown): Faults {
    const next = mergeFaults(this.#faults, update);
    if (next.seed !== this.#faults.seed || this.#faults === NO_FAULTS) this.#dice = new FaultDice(next.seed);
    this.#faults = next;
    this.#chain.frozen = next.freezeHead;
    this.#chain.visibleRetention = next.retentionLedgers ?? undefined;
    return next;
  }

  /** Draws which transport fault, if any, this HTTP request meets (one draw per request while any is on). */
  transportFault(): TransportFault | null {
    const f = this.#faults;
    const bands: [TransportFault, number][] = [
      ["rateLimited", f.rateLimitedRate],
      ["unavailable", f.unavailableRate],
      ["reset", f.resetRate],
      ["hang", f.hangRate],
      ["malformed", f.malformedRate],
    ];
    if (bands.every(([, rate]) => rate === 0)) return null;
    let x = this.#dice.next();
    for (const [fault, rate] of bands) {
      if (x < rate) return fault;
      x -= rate;
    }
    return null;
  }

  /** Draws whether this request fails with an injected internal error. */
  shouldFail(): boolean {
    return this.#faults.errorRate > 0 && this.#dice.next() < this.#faults.errorRate;
  }
}
