// Chain times in Unix seconds (u64) as the API's ISO 8601 timestamps: one rule for every area that shows an expiry.

// Date cannot represent every u64; an expiry beyond year 9999 is shown as its end (it is never reached anyway).
const MAX_ISO_SECONDS = 253_402_300_799n;

/** Unix seconds (u64) as ISO 8601. */
export function isoOfSeconds(seconds: bigint): string {
  const s = seconds > MAX_ISO_SECONDS ? MAX_ISO_SECONDS : seconds;
  return new Date(Number(s) * 1000).toISOString();
}
