import { readdir } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "#domain/limits.js";
import { mediaPhoto, RENDITION_WIDTHS, SHARE_WIDTH } from "#domain/media.js";
import { storePhoto } from "#server/media/photos.js";
import { signIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { multipartBody, phonePhoto } from "../helpers/media.js";

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  ({ cookie } = await signInAsAdmin(t));
});
afterAll(() => t.close());

type Uploaded = { url: string; width: number; height: number; widths: number[] };

const upload = (file: Buffer, filename = "photo.jpg", type = "image/jpeg", headers = { cookie }) => {
  const body = multipartBody(file, filename, type);
  return t.app.inject({
    method: "POST",
    url: "/api/admin/media",
    payload: body.payload,
    headers: { ...headers, ...body.headers },
  });
};

/** A real JPEG of exactly `bytes` bytes: the photo, then zeros after its end marker (decoders stop there). */
async function jpegOfSize(bytes: number): Promise<Buffer> {
  const photo = await phonePhoto({ width: 800, height: 600 });
  return Buffer.concat([photo, Buffer.alloc(bytes - photo.length)]);
}

describe("POST /api/admin/media", () => {
  let uploaded: Uploaded;
  beforeAll(async () => {
    const response = await upload(await phonePhoto());
    expect(response.statusCode).toBe(201);
    uploaded = response.json() as Uploaded;
  });

  it("answers the photo's URL, its size capped at 1600 wide, and its rendition widths", () => {
    expect(uploaded.url).toMatch(/^\/media\/[0-9a-f]{32}-1600x1200-1200\.jpg$/);
    expect(uploaded).toMatchObject({ width: 1600, height: 1200, widths: [...RENDITION_WIDTHS] });
    expect(mediaPhoto(uploaded.url)).toMatchObject({ width: 1600, height: 1200, widths: [...RENDITION_WIDTHS] });
  });

  it("makes AVIF and WebP at every width and a 1200-wide JPEG, served with a year's immutable caching", async () => {
    const photo = mediaPhoto(uploaded.url);
    if (!photo) throw new Error("not a photo URL");
    const wanted = [
      ...photo.widths.flatMap((width) => [
        { url: `/media/${photo.id}-${width}.avif`, type: "image/avif", format: "heif", width },
        { url: `/media/${photo.id}-${width}.webp`, type: "image/webp", format: "webp", width },
      ]),
      { url: uploaded.url, type: "image/jpeg", format: "jpeg", width: SHARE_WIDTH },
    ];
    for (const rendition of wanted) {
      const response = await t.app.inject({ method: "GET", url: rendition.url });
      expect(response.statusCode, rendition.url).toBe(200);
      expect(response.headers["content-type"]).toBe(rendition.type);
      expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      const metadata = await sharp(response.rawPayload).metadata();
      expect(metadata.format).toBe(rendition.format);
      expect(metadata.width).toBe(rendition.width);
      expect(metadata.height).toBe(Math.round((rendition.width * 1200) / 1600));
    }
    const files = await readdir(path.join(t.captureDir, "media"));
    expect(files).toHaveLength(RENDITION_WIDTHS.length * 2 + 1);
  });

  it("strips the phone's metadata (EXIF with its GPS position) from every rendition", async () => {
    const original = await sharp(await phonePhoto()).metadata();
    expect(original.exif?.includes("Phone Maker")).toBe(true);
    const photo = mediaPhoto(uploaded.url);
    for (const url of [uploaded.url, `/media/${photo?.id}-640.webp`, `/media/${photo?.id}-640.avif`]) {
      const response = await t.app.inject({ method: "GET", url });
      const metadata = await sharp(response.rawPayload).metadata();
      expect(metadata.exif, url).toBeUndefined();
      expect(metadata.xmp, url).toBeUndefined();
      expect(metadata.iptc, url).toBeUndefined();
      expect(metadata.orientation, url).toBeUndefined();
      expect(response.rawPayload.includes("Phone Maker"), url).toBe(false);
    }
  });

  it("turns a photo taken sideways upright (EXIF orientation 6) before dropping the orientation", async () => {
    const response = await upload(await phonePhoto({ width: 600, height: 400, orientation: 6 }));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ width: 400, height: 600, widths: [320] });
  });

  it("gives the same photo the same names (content-hashed)", async () => {
    const again = await upload(await phonePhoto(), "another-name.jpg");
    expect((again.json() as Uploaded).url).toBe(uploaded.url);
  });

  it("takes PNG and WebP", async () => {
    const png = await sharp({ create: { width: 500, height: 500, channels: 4, background: "#0000ff80" } })
      .png()
      .toBuffer();
    const webp = await sharp(png).webp().toBuffer();
    for (const [file, name, type] of [
      [png, "a.png", "image/png"],
      [webp, "a.webp", "image/webp"],
    ] as const) {
      const response = await upload(file, name, type);
      expect(response.statusCode, name).toBe(201);
      expect(response.json()).toMatchObject({ width: 500, height: 500, widths: [320] });
    }
  });

  it("refuses a renamed non-image with 415, whatever its name and type say", async () => {
    const response = await upload(Buffer.from("%PDF-1.7 this is an invoice, not a photo\n".repeat(50)), "photo.jpg");
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ message: expect.stringMatching(/JPEG, PNG or WebP/), code: "NOT_AN_IMAGE" });
  });

  it("refuses images of other kinds (GIF, SVG) with 415", async () => {
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } })
      .gif()
      .toBuffer();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
    for (const [file, name] of [
      [gif, "a.gif"],
      [svg, "a.svg"],
    ] as const) {
      const response = await upload(file, name, "image/png");
      expect(response.statusCode, name).toBe(415);
      expect((response.json() as { code: string }).code).toBe("NOT_AN_IMAGE");
    }
  });

  it("refuses a HEIC photo with 415 and tells the admin to export it as JPEG", async () => {
    // An ISO-BMFF file of brand heic, as an iPhone writes (the prebuilt libvips cannot decode HEVC).
    const heic = Buffer.concat([
      Buffer.from([0, 0, 0, 24]),
      Buffer.from("ftypheic\0\0\0\0mif1heic", "latin1"),
      Buffer.alloc(2000),
    ]);
    const response = await upload(heic, "IMG_0001.HEIC", "image/heic");
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      message: expect.stringMatching(/export .* as JPEG/),
      code: "IMAGE_TYPE_UNSUPPORTED",
    });
  });

  it("takes a photo of exactly 10 MB and refuses one byte more with 413 { message, code }", async () => {
    const atLimit = await upload(await jpegOfSize(MAX_UPLOAD_BYTES));
    expect(atLimit.statusCode).toBe(201);
    const over = await upload(await jpegOfSize(MAX_UPLOAD_BYTES + 1));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({ message: expect.stringMatching(/larger than 10 MB/), code: "PAYLOAD_TOO_LARGE" });
  });

  /** A one-colour PNG of any size: a few hundred bytes to a few hundred KB, however many pixels. */
  const plainPng = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: "#d8e8f0" } })
      .png()
      .toBuffer();

  it("takes a photo 20,000 pixels wide and refuses 20,001 with 413 { message, code }, never a 500", async () => {
    const atLimit = await upload(await plainPng(20_000, 2_000), "wide.png", "image/png");
    expect(atLimit.statusCode).toBe(201);
    expect((atLimit.json() as Uploaded).url).toMatch(/-1600x160-1200\.jpg$/);
    const over = await upload(await plainPng(20_001, 2_000), "wide.png", "image/png");
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({
      message: expect.stringMatching(/20.001 pixels wide: .* at most 20.000 pixels on a side/),
      code: "PAYLOAD_TOO_LARGE",
    });
  });

  it("refuses a photo 20,001 pixels tall with 413 from its header alone, and a thin strip with 415", async () => {
    // 1 x 20,001: 504 bytes of PNG, and a 500 ("too large for the WebP format") before issue 39.
    const over = await upload(await plainPng(1, 20_001), "tall.png", "image/png");
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({
      message: expect.stringMatching(/20.001 pixels tall: .* at most 20.000 pixels on a side/),
      code: "PAYLOAD_TOO_LARGE",
    });
    const strip = await upload(await plainPng(1, 20_000), "tall.png", "image/png");
    expect(strip.statusCode).toBe(415);
    expect(strip.json()).toEqual({
      message: expect.stringMatching(/1 x 20000 pixels/),
      code: "IMAGE_SHAPE_UNSUPPORTED",
    });
  });

  it("takes a photo ten times wider than tall and refuses one a pixel more", async () => {
    expect((await upload(await plainPng(100, 10), "banner.png", "image/png")).statusCode).toBe(201);
    const strip = await upload(await plainPng(101, 10), "banner.png", "image/png");
    expect(strip.statusCode).toBe(415);
    expect((strip.json() as { code: string }).code).toBe("IMAGE_SHAPE_UNSUPPORTED");
  });

  it("answers 400 for a form without a file, and 415 for a JSON body", async () => {
    const empty = await t.app.inject({
      method: "POST",
      url: "/api/admin/media",
      payload: "--x--\r\n",
      headers: { cookie, "content-type": "multipart/form-data; boundary=x" },
    });
    expect(empty.statusCode).toBe(400);
    const json = await t.app.inject({ method: "POST", url: "/api/admin/media", payload: {}, headers: { cookie } });
    expect(json.statusCode).toBe(415);
    expect((json.json() as { code: string }).code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("is for admins only", async () => {
    const customer = await signIn(t);
    expect((await upload(await phonePhoto(), "a.jpg", "image/jpeg", { cookie: customer.cookie })).statusCode).toBe(403);
    expect((await upload(await phonePhoto(), "a.jpg", "image/jpeg", { cookie: "" })).statusCode).toBe(401);
  });
});

describe("GET /media/", () => {
  it("answers 404 for a name that is not a rendition, or one never made", async () => {
    for (const url of [
      "/media/..%2F..%2Fpackage.json",
      "/media/nothing.jpg",
      `/media/${"a".repeat(32)}-100x100-320.webp`,
    ]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(404);
      expect((response.json() as { code: string }).code).toBe("NOT_FOUND");
    }
  });

  it("makes a 1200-wide JPEG of a seeded SVG drawing for link previews", async () => {
    const response = await t.app.inject({ method: "GET", url: "/media/share/images/products/adult-pants.jpg" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("image/jpeg");
    const metadata = await sharp(response.rawPayload).metadata();
    expect(metadata).toMatchObject({ format: "jpeg", width: 1200 });
    const missing = await t.app.inject({ method: "GET", url: "/media/share/images/products/nothing.jpg" });
    expect(missing.statusCode).toBe(404);
    const outside = await t.app.inject({ method: "GET", url: "/media/share/..%2F..%2F..%2Fpackage.jpg" });
    expect(outside.statusCode).toBe(404);
  });
});

describe("storePhoto", () => {
  it("stores a photo from a Buffer for other code (the seed command) and answers its URL", async () => {
    const photo = await storePhoto(t.app.media, await phonePhoto({ width: 700, height: 700 }));
    expect(photo).toMatchObject({ width: 700, height: 700, widths: [320, 640] });
    const response = await t.app.inject({ method: "GET", url: photo.url });
    expect(response.statusCode).toBe(200);
  });
});
