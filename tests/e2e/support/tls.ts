import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** A PEM key and certificate pair, as node:https's createServer takes them. */
export interface TlsPair {
  key: string;
  cert: string;
}

/**
 * A throwaway self-signed certificate for `names` (its subjectAltName DNS entries), valid for a
 * day, made with the openssl CLI at test time so no key is ever committed. The key never leaves
 * memory once read: the temporary directory is removed before returning.
 */
export function selfSignedCertificate(names: readonly string[]): TlsPair {
  const [commonName] = names;
  if (!commonName) throw new Error("selfSignedCertificate: give at least one name");
  const dir = mkdtempSync(path.join(os.tmpdir(), "e2e-tls-"));
  try {
    const keyFile = path.join(dir, "key.pem");
    const certFile = path.join(dir, "cert.pem");
    // biome-ignore format: one openssl option and its value per line.
    const args = [
      "req", "-x509", "-nodes",
      "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
      "-keyout", keyFile,
      "-out", certFile,
      "-days", "1",
      "-subj", `/CN=${commonName}`,
      "-addext", `subjectAltName=${names.map((name) => `DNS:${name}`).join(",")}`,
      "-addext", "extendedKeyUsage=serverAuth",
    ];
    try {
      execFileSync("openssl", args, { stdio: "pipe" });
    } catch (error) {
      const detail = (error as { stderr?: Buffer }).stderr?.toString().trim() || String(error);
      throw new Error(`selfSignedCertificate: openssl failed (is the openssl CLI installed?): ${detail}`);
    }
    return { key: readFileSync(keyFile, "utf8"), cert: readFileSync(certFile, "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
