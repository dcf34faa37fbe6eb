import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setTimeout as delay } from "node:timers/promises";
import type { S3Settings } from "../config.js";
import { type Bucket, S3Error, s3Bucket, s3Failure } from "../s3-bucket.js";
import { BACKUP_SUFFIX } from "./create.js";

/** Where the copies go in the bucket (BACKUP_S3_URL): backups/shop-<time>.backup.gz. */
export const OFFSITE_PREFIX = "backups/";

/** The bucket's key of a backup file (its name under backups/). */
export const offsiteKey = (file: string) => `${OFFSITE_PREFIX}${path.basename(file)}`;

/** The checksum the copy carries as metadata, read back by the HEAD that confirms it and by a download. */
const SHA256_HEADER = "x-amz-meta-sha256";

export interface CopyOptions {
  /** Tries of the PUT when the bucket answers 500, 503 or 429 or the connection fails (default 3). */
  attempts?: number;
  /** The wait before the second try, doubled for each one after (default 2 s). */
  retryDelayMs?: number;
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

/** A failure worth another try: the bucket's own trouble (5xx, 429 SlowDown) or the network's. */
const transient = (error: unknown) =>
  error instanceof S3Error ? error.status >= 500 || error.status === 429 : !(error instanceof CopyCheckError);

class CopyCheckError extends Error {}

/**
 * Copies one backup file to the bucket and confirms it arrived whole. One PUT of the whole file,
 * streamed from disk with its Content-Length: S3 takes up to 5 GB in a single PUT, far more than
 * a shop's backup. The body's SHA-256 is signed (x-amz-content-sha256), so the bucket refuses a
 * body changed on the way, and stored as metadata; a HEAD then checks the size and that checksum.
 */
export async function copyBackupOffsite(
  settings: S3Settings,
  file: string,
  options: CopyOptions = {},
): Promise<{ key: string; bytes: number }> {
  const bucket = s3Bucket(settings);
  const key = offsiteKey(file);
  const { size } = await fs.stat(file);
  const sha256 = await sha256OfFile(file);
  const attempts = options.attempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    try {
      await putFile(bucket, key, file, size, sha256);
      await confirmCopy(bucket, key, size, sha256);
      return { key, bytes: size };
    } catch (error) {
      if (attempt >= attempts || !transient(error)) throw error;
      await delay((options.retryDelayMs ?? 2_000) * 2 ** (attempt - 1));
    }
  }
}

async function putFile(bucket: Bucket, key: string, file: string, size: number, sha256: string): Promise<void> {
  const response = await bucket.fetchOnce(bucket.objectUrl(key), {
    method: "PUT",
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    headers: {
      "content-length": String(size),
      "content-type": "application/gzip",
      "x-amz-content-sha256": sha256,
      [SHA256_HEADER]: sha256,
    },
    duplex: "half",
  } as RequestInit);
  if (!response.ok) throw await s3Failure(`PUT ${key}`, response);
  await response.body?.cancel();
}

async function confirmCopy(bucket: Bucket, key: string, size: number, sha256: string): Promise<void> {
  const head = await bucket.fetch(bucket.objectUrl(key), { method: "HEAD" });
  if (!head.ok) throw await s3Failure(`HEAD ${key} after the PUT`, head);
  const stored = Number(head.headers.get("content-length"));
  if (stored !== size) {
    throw new CopyCheckError(`the bucket holds ${stored} bytes under ${key}, not the backup's ${size}`);
  }
  if (head.headers.get(SHA256_HEADER) !== sha256) {
    throw new CopyCheckError(`the bucket's copy of ${key} does not carry the backup's SHA-256`);
  }
}

export interface OffsiteObject {
  key: string;
  lastModified: Date;
  bytes: number;
}

const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

/** Every backup copy in the bucket (ListObjectsV2 under backups/shop-, page after page). */
export async function listOffsiteBackups(settings: S3Settings): Promise<OffsiteObject[]> {
  const bucket = s3Bucket(settings);
  const found: OffsiteObject[] = [];
  let token: string | undefined;
  do {
    const query: Record<string, string> = { "list-type": "2", prefix: `${OFFSITE_PREFIX}shop-` };
    if (token) query["continuation-token"] = token;
    const response = await bucket.fetch(bucket.bucketUrl(query));
    if (!response.ok) throw await s3Failure("ListObjectsV2", response);
    const xml = await response.text();
    for (const [, contents] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
      const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(contents ?? "")?.[1];
      const key = unescapeXml(field("Key") ?? "");
      if (!key.endsWith(BACKUP_SUFFIX)) continue;
      found.push({ key, lastModified: new Date(field("LastModified") ?? 0), bytes: Number(field("Size") ?? 0) });
    }
    const truncated = /<IsTruncated>true<\/IsTruncated>/.test(xml);
    const next = /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1];
    token = truncated && next ? unescapeXml(next) : undefined;
  } while (token);
  return found;
}

/**
 * BACKUP_KEEP_DAYS in the bucket: deletes the copies older than that (by the bucket's own
 * LastModified), never the newest one. Answers the keys deleted.
 */
export async function pruneOffsiteBackups(settings: S3Settings, keepDays: number, now = new Date()): Promise<string[]> {
  const bucket = s3Bucket(settings);
  const copies = await listOffsiteBackups(settings);
  const newest = [...copies].sort((a, b) => b.lastModified.getTime() - a.lastModified.getTime())[0]?.key;
  const removed: string[] = [];
  for (const copy of copies) {
    if (copy.key === newest || now.getTime() - copy.lastModified.getTime() <= keepDays * 86_400_000) continue;
    const response = await bucket.fetch(bucket.objectUrl(copy.key), { method: "DELETE" });
    if (!response.ok && response.status !== 404) throw await s3Failure(`DELETE ${copy.key}`, response);
    removed.push(copy.key);
  }
  return removed;
}

/**
 * Fetches a copy from the bucket into `dir` (for `restore --from-s3`): streamed to a .partial
 * file, its SHA-256 checked against the one stored with it, then renamed. `name` is the key or
 * the file's name alone.
 */
export async function downloadOffsiteBackup(settings: S3Settings, name: string, dir: string): Promise<string> {
  const bucket = s3Bucket(settings);
  const key = name.startsWith(OFFSITE_PREFIX) ? name : offsiteKey(name);
  const response = await bucket.fetch(bucket.objectUrl(key));
  if (response.status === 404) {
    await response.body?.cancel();
    throw new S3Error(`There is no backup ${key} in the bucket (BACKUP_S3_URL).`, 404, "NoSuchKey");
  }
  if (!response.ok || !response.body) throw await s3Failure(`GET ${key}`, response);
  const file = path.join(dir, path.basename(key));
  const partial = `${file}.partial`;
  const hash = createHash("sha256");
  const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  body.on("data", (chunk: Buffer) => hash.update(chunk));
  await pipeline(body, createWriteStream(partial, { mode: 0o600 }));
  const expected = response.headers.get(SHA256_HEADER);
  if (expected && hash.digest("hex") !== expected) {
    await fs.rm(partial, { force: true });
    throw new Error(`The copy of ${key} downloaded from the bucket does not match its SHA-256: try again.`);
  }
  await fs.rename(partial, file);
  return file;
}
