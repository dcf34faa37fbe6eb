import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import multipart from "@fastify/multipart";
import type { FastifyPluginAsync } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MAX_UPLOAD_BYTES } from "#domain/limits.js";
import { MEDIA_NAME, SHARE_WIDTH } from "#domain/media.js";
import { webRoot } from "../pages/static-files.js";
import { badRequest, HttpError, notFound } from "../platform/errors.js";
import { loadSharp, storePhoto } from "./photos.js";
import { IMMUTABLE, type MediaStore } from "./store.js";

const CONTENT_TYPES = { avif: "image/avif", webp: "image/webp", jpg: "image/jpeg" } as const;

const uploadedPhoto = z.object({
  /** The URL to put in a product's `image` or `sizeImages`. */
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  widths: z.array(z.number().int()),
});

const tooLarge = () =>
  new HttpError(
    413,
    `That photo is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB: save it smaller (or as JPEG) and upload it again.`,
    "PAYLOAD_TOO_LARGE",
  );

/** POST /api/admin/media: one photo, as multipart/form-data field `file`; answers its URL and sizes. */
export const adminMediaRoutes: FastifyPluginAsyncZod<{ store: MediaStore }> = async (app, { store }) => {
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 0, parts: 2 } });
  app.post("/media", { schema: { response: { 201: uploadedPhoto } } }, async (request, reply) => {
    if (!request.isMultipart()) {
      throw new HttpError(415, "Send the photo as multipart/form-data, in the field `file`.", "UNSUPPORTED_MEDIA_TYPE");
    }
    const file = await request.file().catch((error: { statusCode?: number }) => {
      if (error.statusCode === 413) throw tooLarge();
      throw badRequest("The upload could not be read: send one photo in the field `file`.", "MALFORMED_BODY");
    });
    if (!file) throw badRequest("Choose a photo to upload.");
    const input = await file.toBuffer().catch((error: { statusCode?: number }) => {
      if (error.statusCode === 413 || file.file.truncated) throw tooLarge();
      throw badRequest("The upload was cut off: try again.", "MALFORMED_BODY");
    });
    // Not audited on its own: a photo shows nowhere until a product's save (audited) names it.
    const { url, width, height, widths } = await storePhoto(store, input);
    return reply.status(201).send({ url, width, height, widths });
  });
};

/** The seeded drawings (and any .svg under the web root) as JPEGs for Open Graph: WhatsApp shows no SVG. */
function svgSources(): string[] {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return [webRoot(), path.resolve(here, "../../web/public"), path.resolve(here, "../../../src/web/public")].filter(
    (dir) => existsSync(dir),
  );
}

/**
 * GET /media/{name}: a photo's rendition, cached for a year (its name changes with its content).
 * GET /media/share/{path}.jpg: the drawing at /{path}.svg as a 1200-wide JPEG, made once.
 */
export const mediaRoutes: FastifyPluginAsync<{ store: MediaStore }> = async (app, { store }) => {
  app.get<{ Params: { name: string } }>("/media/:name", async (request, reply) => {
    const match = MEDIA_NAME.exec(request.params.name);
    const body = match ? await store.get(request.params.name) : null;
    if (!match || !body) throw notFound("No such photo");
    return reply
      .header("cache-control", IMMUTABLE)
      .type(CONTENT_TYPES[match[5] as keyof typeof CONTENT_TYPES])
      .send(body);
  });

  const roots = svgSources();
  const made = new Map<string, Promise<Buffer | null>>();
  const rasterise = async (relative: string): Promise<Buffer | null> => {
    for (const root of roots) {
      const file = path.join(root, `${relative}.svg`);
      if (!file.startsWith(root + path.sep)) return null;
      const svg = await fs.readFile(file).catch(() => null);
      if (!svg) continue;
      const sharp = await loadSharp();
      return sharp(svg, { density: 300 })
        .resize({ width: SHARE_WIDTH })
        .flatten({ background: "#ffffff" })
        .jpeg({ quality: 85, mozjpeg: true })
        .toBuffer();
    }
    return null;
  };
  app.get<{ Params: { "*": string } }>("/media/share/*", async (request, reply) => {
    const wanted = request.params["*"];
    if (!/^[a-z0-9][a-z0-9/_-]*\.jpg$/i.test(wanted) || wanted.includes("//")) throw notFound("No such picture");
    const relative = wanted.slice(0, -".jpg".length);
    let jpeg = made.get(relative);
    if (!jpeg) {
      jpeg = rasterise(relative);
      made.set(relative, jpeg);
      // A missing drawing is not remembered: the map holds at most the drawings there are.
      jpeg.then((body) => body ?? made.delete(relative)).catch(() => made.delete(relative));
    }
    const body = await jpeg.catch(() => null);
    if (!body) throw notFound("No such picture");
    return reply.header("cache-control", "public, max-age=86400").type("image/jpeg").send(body);
  });
};
