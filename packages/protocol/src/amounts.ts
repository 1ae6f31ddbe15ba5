// XLM amounts: integer base units (stroops, 10^7 per XLM) on chain and in `amount` fields; decimal strings with
// exactly 7 fractional digits in `...Xlm` fields. All arithmetic is bigint, so no float ever touches money.

export const XLM_DECIMALS = 7;
export const STROOPS_PER_XLM = 10_000_000n;
export const BPS_DENOMINATOR = 10_000n;

/** 12345678n → "1.2345678"; -5n → "-0.0000005". */
export function stroopsToXlm(stroops: bigint): string {
  const negative = stroops < 0n;
  const abs = negative ? -stroops : stroops;
  const whole = abs / STROOPS_PER_XLM;
  const frac = (abs % STROOPS_PER_XLM).toString().padStart(XLM_DECIMALS, "0");
  return `${negative ? "-" : ""}${whole}.${frac}`;
}

const XLM_RE = /^(-?)(\d+)(?:\.(\d{1,7}))?$/;

/** "1.5" → 15000000n. Rejects more than 7 fractional digits instead of rounding: an amount is never guessed. */
export function xlmToStroops(xlm: string): bigint {
  const m = XLM_RE.exec(xlm);
  if (m === null) throw new RangeError(`not an XLM amount with at most 7 decimals: ${JSON.stringify(xlm)}`);
  const [, sign, whole = "0", frac = ""] = m;
  const value = BigInt(whole) * STROOPS_PER_XLM + BigInt(frac.padEnd(XLM_DECIMALS, "0"));
  return sign === "-" ? -value : value;
}

export function isBps(bps: number): boolean {
  return Number.isInteger(bps) && bps >= 0 && bps <= 10_000;
}

/** amount × bps / 10000, rounded down (the contracts' floor rounding). */
export function applyBps(amount: bigint, bps: number): bigint {
  if (!isBps(bps)) throw new RangeError(`basis points must be an integer in 0..10000: ${bps}`);
  if (amount < 0n) throw new RangeError("amount must not be negative");
  return (amount * BigInt(bps)) / BPS_DENOMINATOR;
}

/** Splits an amount into (share at bps, remainder) so the two always add up to the amount. */
export function splitBps(amount: bigint, bps: number): { share: bigint; rest: bigint } {
  const share = applyBps(amount, bps);
  return { share, rest: amount - share };
}
