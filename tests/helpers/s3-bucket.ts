import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for an S3-compatible bucket (path style: /<bucket>/<key>), written apart from the
 * shop's code: it checks every request's AWS Signature Version 4 with its own implementation of
 * AWS's documented algorithm (node:crypto, not aws4fetch), and answers as S3 documents, errors
 * included: an XML <Error> body with its Code, 403 SignatureDoesNotMatch or InvalidAccessKeyId,
 * 400 XAmzContentSHA256Mismatch, 411 MissingContentLength, 404 NoSuchKey or NoSuchBucket, and
 * the 500 InternalError or 503 SlowDown a test injects. It serves PutObject, GetObject,
 * HeadObject, DeleteObject and ListObjectsV2 (pages of `pageSize` keys).
 */
export interface StoredObject {
  body: Buffer;
  contentType: string;
  lastModified: Date;
  metadata: Record<string, string>;
}

export interface ReceivedRequest {
  method: string;
  /** The path, decoded: /<bucket>/<key>. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  bytes: number;
  /** The status the stand-in answered. */
  status: number;
}

export interface BucketStandIn {
  /** The objects, by "/<bucket>/<key>". */
  objects: Map<string, StoredObject>;
  received: ReceivedRequest[];
  /** The URL the shop is given: http://KEY:SECRET@127.0.0.1:<port>/<bucket>?region=... */
  url: string;
  /** The next `count` requests (of `method`, when given) answer this status with S3's error. */
  fail(count: number, status: 500 | 503, method?: string): void;
  close(): Promise<void>;
}

const S3_ERRORS: Record<number, { code: string; message: string }> = {
  500: { code: "InternalError", message: "We encountered an internal error. Please try again." },
  503: { code: "SlowDown", message: "Please reduce your request rate." },
};

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it: every byte but A-Z a-z 0-9 - _ . ~ percent-encoded, in upper case. */
function uriEncode(text: string, keepSlash: boolean): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(char) || (keepSlash && char === "/")) out += char;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

const xmlText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function xmlError(response: ServerResponse, status: number, code: string, message: string, resource: string) {
  response.writeHead(status, { "content-type": "application/xml" });
  response.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlText(message)}</Message><Resource>${xmlText(resource)}</Resource><RequestId>standin</RequestId></Error>`,
  );
}

/**
 * Checks the Authorization header as AWS documents SigV4 for S3 ("Authenticating Requests: Using
 * the Authorization Header"): the canonical request, the string to sign and the derived key.
 * Answers null when it holds, else the S3 error code and message.
 */
function checkSignature(
  request: IncomingMessage,
  body: Buffer,
  keys: { accessKeyId: string; secretAccessKey: string; region: string },
): { status: number; code: string; message: string } | null {
  const header = String(request.headers.authorization ?? "");
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      header,
    );
  if (!match) return { status: 403, code: "AccessDenied", message: "Access Denied" };
  const [, accessKeyId, day, region, signedHeaderList, signature] = match as unknown as string[];
  if (accessKeyId !== keys.accessKeyId) {
    return {
      status: 403,
      code: "InvalidAccessKeyId",
      message: "The AWS Access Key Id you provided does not exist in our records.",
    };
  }
  const amzDate = String(request.headers["x-amz-date"] ?? "");
  const payloadHash = String(request.headers["x-amz-content-sha256"] ?? "");
  if (!/^\d{8}T\d{6}Z$/.test(amzDate) || amzDate.slice(0, 8) !== day || region !== keys.region) {
    return { status: 403, code: "SignatureDoesNotMatch", message: "The credential scope does not match." };
  }
  if (!payloadHash) return { status: 400, code: "InvalidRequest", message: "Missing x-amz-content-sha256" };
  if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== sha256(body)) {
    return {
      status: 400,
      code: "XAmzContentSHA256Mismatch",
      message: "The provided 'x-amz-content-sha256' header does not match what was computed.",
    };
  }
  const signedHeaders = (signedHeaderList as string).split(";");
  if (!signedHeaders.includes("host") || !signedHeaders.includes("x-amz-date")) {
    return { status: 403, code: "AccessDenied", message: "host and x-amz-date must be signed" };
  }
  const url = new URL(request.url ?? "/", "http://stand-in");
  const canonicalUri = uriEncode(decodeURIComponent(url.pathname), true);
  const canonicalQuery = [...url.searchParams]
    .map(([name, value]) => [uriEncode(name, false), uriEncode(value, false)])
    .sort(([a = "", x = ""], [b = "", y = ""]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const canonicalHeaders = signedHeaders
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? "")
          .trim()
          .replace(/\s+/g, " ")}\n`,
    )
    .join("");
  const canonicalRequest = [
    request.method,
    canonicalUri,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders.join(";"),
    payloadHash,
  ].join("\n");
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${keys.secretAccessKey}`, day as string), region as string), "s3"),
    "aws4_request",
  );
  const expected = createHmac("sha256", signingKey).update(stringToSign).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature as string, "hex"))) {
    return {
      status: 403,
      code: "SignatureDoesNotMatch",
      message:
        "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
    };
  }
  return null;
}

function listObjectsV2(objects: Map<string, StoredObject>, bucket: string, query: URLSearchParams, pageSize: number) {
  const prefix = query.get("prefix") ?? "";
  const keys = [...objects.keys()]
    .filter((path) => path.startsWith(`/${bucket}/`))
    .map((path) => path.slice(bucket.length + 2))
    .filter((key) => key.startsWith(prefix))
    .sort();
  const after = query.get("continuation-token");
  const start = after ? keys.findIndex((key) => key > Buffer.from(after, "base64").toString()) : 0;
  const page = start < 0 ? [] : keys.slice(start, start + pageSize);
  const truncated = start >= 0 && start + pageSize < keys.length;
  const contents = page
    .map((key) => {
      const object = objects.get(`/${bucket}/${key}`) as StoredObject;
      return `<Contents><Key>${xmlText(key)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified><ETag>"${createHash("md5").update(object.body).digest("hex")}"</ETag><Size>${object.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
    })
    .join("");
  const next = truncated
    ? `<NextContinuationToken>${Buffer.from(page.at(-1) ?? "").toString("base64")}</NextContinuationToken>`
    : "";
  return `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucket}</Name><Prefix>${xmlText(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${pageSize}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents}${next}</ListBucketResult>`;
}

export async function startBucketStandIn(
  options: { bucket?: string; region?: string; accessKeyId?: string; secretAccessKey?: string; pageSize?: number } = {},
): Promise<BucketStandIn> {
  const bucket = options.bucket ?? "shop-backups";
  const keys = {
    accessKeyId: options.accessKeyId ?? "SHOPKEYID",
    secretAccessKey: options.secretAccessKey ?? "shop/secret+key",
    region: options.region ?? "af-south-1",
  };
  const pageSize = options.pageSize ?? 1000;
  const objects = new Map<string, StoredObject>();
  const received: ReceivedRequest[] = [];
  const faults: { status: 500 | 503; method: string | undefined }[] = [];

  const answer = (request: IncomingMessage, response: ServerResponse, body: Buffer) => {
    const url = new URL(request.url ?? "/", "http://stand-in");
    const path = decodeURIComponent(url.pathname);
    const method = request.method ?? "GET";
    const fault = faults.findIndex((entry) => entry.method === undefined || entry.method === method);
    if (fault >= 0) {
      const { status } = faults.splice(fault, 1)[0] as { status: 500 | 503 };
      const error = S3_ERRORS[status] as { code: string; message: string };
      return xmlError(response, status, error.code, error.message, path);
    }
    const refused = checkSignature(request, body, keys);
    if (refused) return xmlError(response, refused.status, refused.code, refused.message, path);
    const [, name = "", ...rest] = path.split("/");
    const key = rest.join("/");
    if (name !== bucket) return xmlError(response, 404, "NoSuchBucket", "The specified bucket does not exist", path);
    if (key === "" && method === "GET" && url.searchParams.get("list-type") === "2") {
      response.writeHead(200, { "content-type": "application/xml" });
      return response.end(listObjectsV2(objects, bucket, url.searchParams, pageSize));
    }
    if (method === "PUT") {
      if (request.headers["content-length"] === undefined) {
        return xmlError(
          response,
          411,
          "MissingContentLength",
          "You must provide the Content-Length HTTP header.",
          path,
        );
      }
      const metadata = Object.fromEntries(
        Object.entries(request.headers)
          .filter(([header]) => header.startsWith("x-amz-meta-"))
          .map(([header, value]) => [header, String(value)]),
      );
      const contentType = String(request.headers["content-type"] ?? "binary/octet-stream");
      objects.set(path, { body, contentType, lastModified: new Date(), metadata });
      response.writeHead(200, { etag: `"${createHash("md5").update(body).digest("hex")}"` });
      return response.end();
    }
    if (method === "DELETE") {
      objects.delete(path);
      response.writeHead(204);
      return response.end();
    }
    const object = objects.get(path);
    if (!object) {
      if (method === "HEAD") return response.writeHead(404).end();
      return xmlError(response, 404, "NoSuchKey", "The specified key does not exist.", path);
    }
    response.writeHead(200, {
      "content-type": object.contentType,
      "content-length": object.body.length,
      "last-modified": object.lastModified.toUTCString(),
      etag: `"${createHash("md5").update(object.body).digest("hex")}"`,
      ...object.metadata,
    });
    response.end(method === "HEAD" ? undefined : object.body);
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      answer(request, response, body);
      received.push({
        method: request.method ?? "",
        path: decodeURIComponent(new URL(request.url ?? "/", "http://stand-in").pathname),
        query: new URL(request.url ?? "/", "http://stand-in").searchParams,
        headers: request.headers,
        bytes: body.length,
        status: response.statusCode,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const credentials = `${encodeURIComponent(keys.accessKeyId)}:${encodeURIComponent(keys.secretAccessKey)}`;
  return {
    objects,
    received,
    url: `http://${credentials}@127.0.0.1:${port}/${bucket}?region=${keys.region}`,
    fail(count, status, method) {
      for (let i = 0; i < count; i++) faults.push({ status, method });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
