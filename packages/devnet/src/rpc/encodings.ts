// Wire encodings that differ per method (as stellar-rpc sends them, not always as its OpenRPC document types them): times as strings or numbers, RFC 3339 close times.
export function unixString(seconds: number): string {
  return String(seconds);
}

export function rfc3339(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}
