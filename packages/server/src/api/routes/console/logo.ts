// Namespace logos: owner uploads served to every client as data URLs (docs/api.md "Directory": the roster's `logo`). Only raster
// formats browsers render inertly are accepted, PNG, JPEG and WebP, judged by the decoded bytes rather than the
// declared type: an SVG can carry script, and a declared type that disagrees with the bytes invites a browser to
// sniff. A mismatch (PNG bytes declared as JPEG) is refused rather than relabelled, so what the owner sent is
// exactly what is served.
import { ApiError } from "../../errors.ts";

export const LOGO_MAX_BYTES = 64 * 1024;

export const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

const DATA_URL = /^data:([^;,]*);base64,([A-Za-z0-9+/]*={0,2})$/;
/** Base64 length of the largest accepted payload: longer text is refused before anything is decoded. */
const MAX_BASE64_LENGTH = 4 * Math.ceil(LOGO_MAX_BYTES / 3);

const invalid = (detail: string) => new ApiError("invalid_request", { detail: `logo: ${detail}` });

/** The logo as it is stored and served: a `data:<type>;base64,<payload>` URL. Throws 400 invalid_request. */
export function parseLogo(dataUrl: string): string {
  const match = DATA_URL.exec(dataUrl);
  if (match === null) {
    throw invalid("must be a data URL with a base64 payload, e.g. data:image/png;base64,iVBORw0KGgo…");
  }
  const declared = match[1] ?? "";
  const payload = match[2] ?? "";
  if (!isLogoType(declared))
    throw invalid(`must be a PNG, JPEG or WebP image, not ${declared || "untyped data"}`);
  if (payload.length > MAX_BASE64_LENGTH) throw tooLarge();
  const bytes = Buffer.from(payload, "base64");
  // Node skips stray characters and bad padding silently; a payload that does not round-trip is not base64.
  if (bytes.toString("base64") !== payload) throw invalid("the payload is not valid base64");
  if (bytes.length > LOGO_MAX_BYTES) throw tooLarge();
  const actual = sniff(bytes);
  if (actual === null)
    throw invalid(`the data is not a ${declared.slice("image/".length).toUpperCase()} image`);
  if (actual !== declared) throw invalid(`declares ${declared} but the data is ${actual}`);
  return `data:${declared};base64,${payload}`;
}

function tooLarge(): ApiError {
  return invalid(`must be at most ${LOGO_MAX_BYTES} bytes (64 KiB) decoded`);
}

function isLogoType(type: string): type is LogoType {
  return (LOGO_TYPES as readonly string[]).includes(type);
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Buffer, magic: readonly number[], at = 0) =>
  bytes.length >= at + magic.length && magic.every((b, i) => bytes[at + i] === b);

/** The format the bytes' signature names, or null for anything else. */
export function sniff(bytes: Buffer): LogoType | null {
  if (startsWith(bytes, PNG)) return "image/png";
  if (startsWith(bytes, JPEG)) return "image/jpeg";
  const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return null;
}
