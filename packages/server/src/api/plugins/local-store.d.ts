// Types for @fastify/rate-limit's in-process store (the package types only its plugin). The app hands this class
// to the plugin as its store, so the fast resolve path can count a request in the very same store synchronously.
// A deep import (the package has no exports map): should a release close it, the type check and the fast resolve
// tests fail rather than anything silently counting twice.
declare module "@fastify/rate-limit/store/LocalStore.js" {
  export default class LocalStore {
    constructor(continueExceeding?: boolean, exponentialBackoff?: boolean, cache?: number);
    /** Calls `callback` before it returns: the store is a plain in-memory LRU. */
    incr(
      key: string,
      callback: (error: Error | null, result: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ): void;
    /** The count without counting this call (the plugin's `{ increment: false }`). */
    read(
      key: string,
      callback: (error: Error | null, result: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ): void;
    child(routeOptions: object): LocalStore;
  }
}
