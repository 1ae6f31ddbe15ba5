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
