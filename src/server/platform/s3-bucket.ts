import { AwsClient } from "aws4fetch";
import type { S3Settings } from "./config.js";

/**
 * One S3-compatible bucket, path style (https://host/bucket/key), every request signed with AWS
 * Signature V4 by aws4fetch: the photo store (media/store.ts) and the off-site backup copies
 * (backup/offsite.ts) both go through here, so the bucket's address and the signing are one rule.
 */
export interface Bucket {
  /** The object's URL: each segment of the key percent-encoded, its slashes kept. */
  objectUrl(key: string): string;
  /** The bucket's own URL, with the given query (ListObjectsV2). */
  bucketUrl(query?: Record<string, string>): string;
  /** A signed request, retried by aws4fetch on 5xx and 429 (only for a body that can be sent again). */
  fetch(url: string, init?: RequestInit): Promise<Response>;
  /** One signed attempt: for a streamed body, which cannot be sent twice. */
  fetchOnce(url: string, init?: RequestInit): Promise<Response>;
}

export function s3Bucket(settings: S3Settings): Bucket {
  const client = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    region: settings.region,
    service: "s3",
  });
  const base = `${settings.endpoint}/${encodeURIComponent(settings.bucket)}`;
  return {
    objectUrl: (key) => `${base}/${key.split("/").map(encodeURIComponent).join("/")}`,
    bucketUrl: (query = {}) => {
      const search = new URLSearchParams(query).toString();
      return search ? `${base}?${search}` : base;
    },
    fetch: (url, init) => client.fetch(url, init),
    fetchOnce: async (url, init) => fetch(await client.sign(url, init)),
  };
}

/** What an S3 error answer says: its status and the <Code> and <Message> of its XML body. */
export async function s3Failure(what: string, response: Response): Promise<Error> {
  const text = await response.text().catch(() => "");
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
  const detail = [code, message].filter(Boolean).join(": ");
  return new S3Error(`${what} answered ${response.status}${detail ? ` (${detail})` : ""}`, response.status, code);
}

export class S3Error extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = "S3Error";
  }
}
