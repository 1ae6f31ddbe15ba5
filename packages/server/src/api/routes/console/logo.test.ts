import { describe, expect, it } from "vitest";
import { solidPng } from "../../../runtime/seed-demo.ts";
import { ApiError } from "../../errors.ts";
import { LOGO_MAX_BYTES, parseLogo, sniff } from "./logo.ts";

const PNG = solidPng([0, 0, 0]);
const url = (type: string, bytes: Buffer | string) =>
  `data:${type};base64,${typeof bytes === "string" ? bytes : bytes.toString("base64")}`;

function refusal(dataUrl: string): unknown {
  try {
    parseLogo(dataUrl);
  } catch (error) {
    if (error instanceof ApiError) return error.body();
    throw error;
  }
  throw new Error("accepted");
}

describe("parseLogo", () => {
  it("returns an accepted logo unchanged", () => {
    expect(parseLogo(url("image/png", PNG))).toBe(url("image/png", PNG));
  });

  it("names the image format by its signature bytes", () => {
    expect(sniff(PNG)).toBe("image/png");
    expect(sniff(Buffer.from([0xff, 0xd8, 0xff, 0xdb]))).toBe("image/jpeg");
    expect(sniff(Buffer.from("RIFF\x10\0\0\0WEBPVP8 ", "latin1"))).toBe("image/webp");
    expect(sniff(Buffer.from("RIFF\x10\0\0\0WAVEfmt ", "latin1"))).toBeNull();
    expect(sniff(Buffer.from("GIF89a"))).toBeNull();
    expect(sniff(PNG.subarray(0, 7))).toBeNull();
    expect(sniff(Buffer.alloc(0))).toBeNull();
  });

  it("refuses declared types outside PNG, JPEG and WebP", () => {
    expect(refusal(url("image/gif", Buffer.from("GIF89a")))).toEqual({
      error: "invalid_request",
      detail: "logo: must be a PNG, JPEG or WebP image, not image/gif",
    });
    expect(refusal(url("", PNG))).toEqual({
      error: "invalid_request",
      detail: "logo: must be a PNG, JPEG or WebP image, not untyped data",
    });
    // Types are matched exactly: the stored URL is served as is.
    expect(refusal(url("IMAGE/PNG", PNG))).toEqual({
      error: "invalid_request",
      detail: "logo: must be a PNG, JPEG or WebP image, not IMAGE/PNG",
    });
  });

  it("refuses payloads that are not canonical base64", () => {
    const bad = { error: "invalid_request", detail: "logo: the payload is not valid base64" };
    expect(refusal(url("image/png", "iVBORw0KGgo"))).toEqual(bad);
    expect(refusal(url("image/png", "iVBORw0KGgp="))).toEqual(bad);
    expect(refusal("data:image/png;charset=utf-8;base64,iVBORw0KGgo=")).toEqual({
      error: "invalid_request",
      detail: "logo: must be a data URL with a base64 payload, e.g. data:image/png;base64,iVBORw0KGgo…",
    });
  });

  it("refuses more than 64 KiB before and after decoding", () => {
    const tooLarge = {
      error: "invalid_request",
      detail: "logo: must be at most 65536 bytes (64 KiB) decoded",
    };
    const padded = (n: number) => Buffer.concat([PNG, Buffer.alloc(n - PNG.length)]);
    expect(parseLogo(url("image/png", padded(LOGO_MAX_BYTES)))).toBe(
      url("image/png", padded(LOGO_MAX_BYTES)),
    );
    expect(refusal(url("image/png", padded(LOGO_MAX_BYTES + 1)))).toEqual(tooLarge);
    expect(refusal(url("image/png", "A".repeat(4 * 1024 * 1024)))).toEqual(tooLarge);
  });

  it("refuses a payload whose bytes disagree with its declared type", () => {
    expect(refusal(url("image/webp", PNG))).toEqual({
      error: "invalid_request",
      detail: "logo: declares image/webp but the data is image/png",
    });
    expect(refusal(url("image/jpeg", Buffer.from("not an image")))).toEqual({
      error: "invalid_request",
      detail: "logo: the data is not a JPEG image",
    });
  });
});
