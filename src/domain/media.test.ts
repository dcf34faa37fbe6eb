import { describe, expect, it } from "vitest";
import { mediaPhoto, mediaSrcSet, renditionWidths } from "./media.js";

const hash = "0123456789abcdef0123456789abcdef";

describe("renditionWidths", () => {
  it.each([
    [1600, [320, 640, 960, 1280, 1600]],
    [1000, [320, 640, 960]],
    [320, [320]],
    [200, [200]],
  ])("a photo %i wide has renditions at %j", (width, widths) => {
    expect(renditionWidths(width)).toEqual(widths);
  });
});

describe("mediaPhoto", () => {
  it("reads an uploaded photo's size and widths from its URL", () => {
    expect(mediaPhoto(`/media/${hash}-1000x750-1200.jpg`)).toEqual({
      id: `${hash}-1000x750`,
      width: 1000,
      height: 750,
      widths: [320, 640, 960],
    });
  });

  it.each([
    "/images/products/adult-pants.svg",
    "https://cdn.example.com/media/x.jpg",
    `https://evil.example/media/${hash}-1000x750-1200.jpg`,
    `/media/${hash}-0x750-1200.jpg`,
    `/media/${hash.toUpperCase()}-1000x750-1200.jpg`,
    `/media/${hash}-1000x750-1200.gif`,
    `/media/${hash}-1000x750-1200.jpg?x=1`,
  ])("is null for any other URL: %s", (url) => {
    expect(mediaPhoto(url)).toBeNull();
  });

  it("makes a srcset of one format", () => {
    const photo = mediaPhoto(`/media/${hash}-640x480-1200.jpg`);
    if (!photo) throw new Error("not a photo");
    expect(mediaSrcSet(photo, "avif")).toBe(
      `/media/${hash}-640x480-320.avif 320w, /media/${hash}-640x480-640.avif 640w`,
    );
  });
});
