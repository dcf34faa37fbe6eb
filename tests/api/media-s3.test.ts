import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaPhoto } from "#domain/media.js";
import { signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { multipartBody, phonePhoto } from "../helpers/media.js";

/**
 * A stand-in for an S3-compatible bucket, written apart from the shop's code: it keeps what is PUT,
 * answers GETs from it, and records every request so the test can read what the shop sent.
 */
interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  bytes: number;
}
function bucketStandIn() {
  const objects = new Map<string, { body: Buffer; type: string }>();
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const path = decodeURIComponent(request.url ?? "");
      received.push({ method: request.method ?? "", path, headers: request.headers, bytes: body.length });
      if (!String(request.headers.authorization ?? "").startsWith("AWS4-HMAC-SHA256 ")) {
        response.writeHead(403, { "content-type": "application/xml" }).end("<Error><Code>AccessDenied</Code></Error>");
        return;
      }
      if (request.method === "PUT") {
        objects.set(path, { body, type: String(request.headers["content-type"]) });
        response.writeHead(200, { etag: '"x"' }).end();
        return;
      }
      const object = objects.get(path);
      if (!object) {
        response.writeHead(404, { "content-type": "application/xml" }).end("<Error><Code>NoSuchKey</Code></Error>");
        return;
      }
      response.writeHead(200, { "content-type": object.type }).end(object.body);
    });
  });
  return { server, objects, received };
}

let bucket: ReturnType<typeof bucketStandIn>;
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  bucket = bucketStandIn();
  await new Promise<void>((resolve) => bucket.server.listen(0, "127.0.0.1", resolve));
  const { port } = (bucket.server as Server).address() as AddressInfo;
  t = await buildTestApp({ S3_URL: `http://SHOPKEYID:shop%2Fsecret@127.0.0.1:${port}/shop-media?region=af-south-1` });
  ({ cookie } = await signInAsAdmin(t));
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => bucket.server.close(resolve));
});

describe("photos in an S3-compatible bucket (S3_URL)", () => {
  it("PUTs every rendition signed, with its content type and a year's immutable caching, and serves it back", async () => {
    const body = multipartBody(await phonePhoto({ width: 700, height: 500 }), "photo.jpg", "image/jpeg");
    const response = await t.app.inject({
      method: "POST",
      url: "/api/admin/media",
      payload: body.payload,
      headers: { cookie, ...body.headers },
    });
    expect(response.statusCode).toBe(201);
    const { url } = response.json() as { url: string };
    const photo = mediaPhoto(url);
    if (!photo) throw new Error("not a photo URL");

    const puts = bucket.received.filter((request) => request.method === "PUT");
    expect(puts.map((put) => put.path).sort()).toEqual(
      [
        `/shop-media/media/${photo.id}-320.avif`,
        `/shop-media/media/${photo.id}-320.webp`,
        `/shop-media/media/${photo.id}-640.avif`,
        `/shop-media/media/${photo.id}-640.webp`,
        `/shop-media/media/${photo.id}-1200.jpg`,
      ].sort(),
    );
    for (const put of puts) {
      expect(put.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=SHOPKEYID\/\d{8}\/af-south-1\/s3\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/,
      );
      // aws4fetch signs the cache-control it sends (content-type is sent unsigned, as S3 allows).
      const signed = /SignedHeaders=([^,]+)/.exec(String(put.headers.authorization))?.[1]?.split(";");
      expect(signed).toEqual(expect.arrayContaining(["cache-control", "host", "x-amz-content-sha256", "x-amz-date"]));
      expect(put.headers["x-amz-date"]).toMatch(/^\d{8}T\d{6}Z$/);
      expect(put.headers["x-amz-content-sha256"]).toMatch(/^[0-9a-f]{64}$/);
      expect(put.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(put.headers["content-type"]).toBe(
        put.path.endsWith(".avif") ? "image/avif" : put.path.endsWith(".webp") ? "image/webp" : "image/jpeg",
      );
      expect(put.bytes).toBeGreaterThan(100);
    }

    const served = await t.app.inject({ method: "GET", url: `/media/${photo.id}-640.webp` });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/webp");
    expect(served.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(
      served.rawPayload.equals(bucket.objects.get(`/shop-media/media/${photo.id}-640.webp`)?.body ?? Buffer.alloc(0)),
    ).toBe(true);
    const missing = await t.app.inject({ method: "GET", url: `/media/${photo.id}-960.webp` });
    expect(missing.statusCode).toBe(404);
  });
});
