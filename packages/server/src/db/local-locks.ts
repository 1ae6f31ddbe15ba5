// Advisory locks for PGlite. Its one connection would grant every request (advisory locks are re-entrant per
// session) and only one process can open its directory, so exclusion within this process is the whole job.
import type { AdvisoryLock } from "./types.ts";

export class LocalLocks {
  readonly #held = new Set<bigint>();
  readonly #waiters = new Map<bigint, Array<() => void>>();
  readonly #closed = new AbortController();

  tryAcquire(key: bigint): AdvisoryLock | null {
    if (this.#closed.signal.aborted) throw new Error("database is closed");
    if (this.#held.has(key)) return null;
    this.#held.add(key);
    return this.#lock(key);
  }

  async acquire(key: bigint, signal?: AbortSignal): Promise<AdvisoryLock> {
    for (;;) {
      signal?.throwIfAborted();
      const lock = this.tryAcquire(key);
      if (lock !== null) return lock;
      await this.#released(key, signal);
    }
  }

  /** Ends every lock: the database they guarded is going away. */
  close(): void {
    this.#closed.abort();
    this.#held.clear();
    for (const wake of [...this.#waiters.values()].flat()) wake();
    this.#waiters.clear();
  }

  #lock(key: bigint): AdvisoryLock {
    const lost = new AbortController();
    const onClose = () => lost.abort(new Error("database closed while the lock was held"));
    this.#closed.signal.addEventListener("abort", onClose, { once: true });
    let released = false;
    return {
      key,
      lost: lost.signal,
      release: async () => {
        if (released) return;
        released = true;
        this.#closed.signal.removeEventListener("abort", onClose);
        this.#held.delete(key);
        const waiters = this.#waiters.get(key) ?? [];
        this.#waiters.delete(key);
        for (const wake of waiters) wake();
      },
    };
  }

  #released(key: bigint, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal?.reason);
      const wake = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const list = this.#waiters.get(key) ?? [];
      list.push(wake);
      this.#waiters.set(key, list);
    });
  }
}
