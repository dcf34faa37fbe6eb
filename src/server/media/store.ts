import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { S3Settings } from "../platform/config.js";
import { s3Bucket, s3Failure } from "../platform/s3-bucket.js";

/** Every rendition's name is content-hashed, so a stored file never changes: caches may keep it a year. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

/** Where photo renditions live: MEDIA_DIR on this machine, or an S3-compatible bucket (S3_URL). */
export interface MediaStore {
  put(name: string, body: Buffer, contentType: string): Promise<void>;
  /** The file's bytes, or null when there is none by that name. */
  get(name: string): Promise<Buffer | null>;
}

/** Files in one folder, each written whole (a temporary file renamed into place). */
export function diskStore(dir: string): MediaStore {
  let made: Promise<unknown> | null = null;
  return {
    async put(name, body) {
      made ??= fs.mkdir(dir, { recursive: true });
      await made;
      const file = path.join(dir, name);
      const temporary = `${file}.${randomUUID()}.tmp`;
      await fs.writeFile(temporary, body);
      await fs.rename(temporary, file);
    },
    async get(name) {
      try {
        return await fs.readFile(path.join(dir, name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
  };
}

/**
 * Objects under media/ in a bucket, path style (https://host/bucket/media/name), signed with AWS
 * Signature V4 (s3-bucket.ts). The shop still serves them at /media/, so URLs do not depend on the store.
 */
export function s3Store(settings: S3Settings): MediaStore {
  const bucket = s3Bucket(settings);
  const objectUrl = (name: string) => bucket.objectUrl(`media/${name}`);
  return {
    async put(name, body, contentType) {
      const response = await bucket.fetch(objectUrl(name), {
        method: "PUT",
        body: new Uint8Array(body),
        headers: {
          "content-type": contentType,
          "cache-control": IMMUTABLE,
          // Signed: the bucket refuses a body changed on the way (aws4fetch would send UNSIGNED-PAYLOAD).
          "x-amz-content-sha256": createHash("sha256").update(body).digest("hex"),
        },
      });
      if (!response.ok) throw await s3Failure(`S3 PUT ${name}`, response);
    },
    async get(name) {
      const response = await bucket.fetch(objectUrl(name));
      if (response.status === 404) return null;
      if (!response.ok) throw await s3Failure(`S3 GET ${name}`, response);
      return Buffer.from(await response.arrayBuffer());
    },
  };
}

export function mediaStore(config: { dir: string; s3?: S3Settings | undefined }): MediaStore {
  return config.s3 ? s3Store(config.s3) : diskStore(config.dir);
}
