// Amounts the API gives in base units (a decimal string and the token's `decimals`, e.g. the claim fee: docs/api.md
// "Claims") shown as the asset's own unit. BigInt keeps every digit (a Number would round large amounts); written
// by hand because the page ships no Stellar SDK and the conversion is a few lines.
export function fromBaseUnits(amount: string, decimals: number): string {
  if (!/^-?\d+$/.test(amount)) return amount;
  const negative = amount.startsWith("-");
  const digits = (negative ? amount.slice(1) : amount).padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals).replace(/^0+(?=\d)/, "");
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`;
}

/**
 * A claim's objection window in words. An awarded claim's window no longer matters (the namespace is allocated), so
 * it says when the award happened instead of counting down to a deadline that decides nothing.
 */
export function objectionWindow(claim: {
  readonly state: string;
  readonly elapsed: boolean;
  readonly remainingSeconds: number;
  readonly awardedAt: string | null;
}): string {
  if (claim.state === "awarded")
    return claim.awardedAt === null ? "closed (awarded)" : `closed (awarded ${claim.awardedAt})`;
  if (claim.elapsed) return "elapsed";
  return `${Math.ceil(claim.remainingSeconds / 3600)} h left`;
}
