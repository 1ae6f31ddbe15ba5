// A plausible Soroban resource fee model (rates of the order of mainnet's network settings).
const FEE_PER_10K_INSTRUCTIONS = 25n;
const FEE_PER_READ_ENTRY = 6_250n;
const FEE_PER_WRITE_ENTRY = 10_000n;
const FEE_PER_DISK_READ_KB = 1_786n;
const FEE_PER_WRITE_KB = 11_800n;
const FEE_PER_TX_SIZE_KB = 1_624n;
const FEE_PER_EVENTS_KB = 10_000n;
const RENT_FEE_PER_WRITE_ENTRY = 1_500n;

export interface DeclaredResources {
  readonly instructions: number;
  readonly diskReadBytes: number;
  readonly writeBytes: number;
  readonly readEntries: number;
  readonly writeEntries: number;
  readonly txSizeBytes: number;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** The part of the fee charged for the declared resources whatever the invocation does. */
export function nonRefundableFee(r: DeclaredResources): bigint {
  return (
    ceilDiv(BigInt(r.instructions) * FEE_PER_10K_INSTRUCTIONS, 10_000n) +
    BigInt(r.readEntries) * FEE_PER_READ_ENTRY +
    BigInt(r.writeEntries) * FEE_PER_WRITE_ENTRY +
    ceilDiv(BigInt(r.diskReadBytes) * FEE_PER_DISK_READ_KB, 1024n) +
    ceilDiv(BigInt(r.writeBytes) * FEE_PER_WRITE_KB, 1024n) +
    ceilDiv(BigInt(r.txSizeBytes) * FEE_PER_TX_SIZE_KB, 1024n)
  );
}

/** Events and rent, charged as used (and refunded above that in the real network). */
export function refundableFee(eventsBytes: number, writeEntries: number): bigint {
  return (
    ceilDiv(BigInt(eventsBytes) * FEE_PER_EVENTS_KB, 1024n) + BigInt(writeEntries) * RENT_FEE_PER_WRITE_ENTRY
  );
}

/** soroban-simulation's default adjustments: instructions ×1.04 (at least +50,000), refundable ×1.15. */
export function adjustInstructions(instructions: number): number {
  return Math.max(Math.ceil(instructions * 1.04), instructions + 50_000);
}

export function adjustRefundable(fee: bigint): bigint {
  return ceilDiv(fee * 115n, 100n);
}

export function adjustTxSize(bytes: number): number {
  return Math.max(Math.ceil(bytes * 1.1), bytes + 500);
}
