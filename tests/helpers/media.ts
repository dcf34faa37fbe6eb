import { randomBytes } from "node:crypto";
import sharp from "sharp";

/** A multipart/form-data body with one file in the field `file`, as a browser's FormData sends it. */
export function multipartBody(file: Buffer, filename: string, type: string) {
  const boundary = `----shop-test-${randomBytes(8).toString("hex")}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/** A phone-like JPEG: a gradient with EXIF (camera, GPS position) and the given orientation. */
export async function phonePhoto({ width = 2000, height = 1500, orientation = 1 } = {}): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      pixels[at] = (x * 255) / width;
      pixels[at + 1] = (y * 255) / height;
      pixels[at + 2] = 120;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: "Phone Maker", Model: "Phone 15" },
      IFD3: {
        GPSLatitudeRef: "S",
        GPSLatitude: "33/1 55/1 30/1",
        GPSLongitudeRef: "E",
        GPSLongitude: "18/1 25/1 10/1",
      },
    })
    .withMetadata({ orientation })
    .toBuffer();
}
