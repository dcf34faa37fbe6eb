import { once } from "node:events";
import type { Readable, Writable } from "node:stream";

/**
 * The backup file (docs/backups.md): gzip of
 *
 *   SNUG-AND-DRY-BACKUP 1\n
 *   <header JSON>\n                         what was backed up: migration level, tables and columns
 *   TABLE <name>\n <length>\n<bytes>... 0\n  each table's COPY text, in chunks, in load order
 *   MANIFEST\n <manifest JSON>\n             rows, bytes and SHA-256 of each table; sequences
 *
 * Chunked so that a table streams from COPY TO into the file and back into COPY FROM without
 * being held in memory; the manifest comes last because the checksums are known only then.
 */
export const MAGIC = "SNUG-AND-DRY-BACKUP";
export const FORMAT_VERSION = 1;

export interface BackupHeader {
  format: number;
  createdAt: string;
  /** The server it was taken from (version() text). */
  sourceServer: string;
  /** How many of the shop's migrations were applied, and the last one's journal time and tag. */
  migrations: { count: number; lastCreatedAt: number; lastTag: string | null };
  /** The shop's schema's tables in load order (parents before the tables that refer to them). */
  tables: { name: string; columns: string[] }[];
}

export interface BackupManifest {
  tables: { name: string; rows: number; bytes: number; sha256: string }[];
  /** Read after every table, so each is at or past the highest value any copied row holds. */
  sequences: { name: string; lastValue: string | null; isCalled: boolean }[];
}

/** Writes to a stream, waiting when it asks to (backpressure). */
export async function put(out: Writable, data: string | Buffer): Promise<void> {
  if (!out.write(data)) await once(out, "drain");
}

export class BackupFormatError extends Error {
  override name = "BackupFormatError";
}

/** Reads lines and byte runs from a (gunzipped) stream, buffering only what the next read needs. */
export class BackupReader {
  #buffer: Buffer = Buffer.alloc(0);
  #iterator: AsyncIterator<Buffer>;
  #ended = false;

  constructor(stream: Readable) {
    this.#iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  async #fill(): Promise<boolean> {
    if (this.#ended) return false;
    const next = await this.#iterator.next();
    if (next.done) {
      this.#ended = true;
      return false;
    }
    this.#buffer = this.#buffer.length === 0 ? next.value : Buffer.concat([this.#buffer, next.value]);
    return true;
  }

  async line(limit = 16 * 1024 * 1024): Promise<string> {
    for (;;) {
      const end = this.#buffer.indexOf(10);
      if (end >= 0) {
        const text = this.#buffer.subarray(0, end).toString("utf8");
        this.#buffer = this.#buffer.subarray(end + 1);
        return text;
      }
      if (this.#buffer.length > limit) throw new BackupFormatError("The backup file is damaged: a line is too long.");
      if (!(await this.#fill())) throw new BackupFormatError("The backup file ends too early: it is incomplete.");
    }
  }

  /** Exactly `length` bytes, handed over in the pieces they arrive in. */
  async *bytes(length: number): AsyncGenerator<Buffer> {
    let left = length;
    while (left > 0) {
      if (this.#buffer.length === 0 && !(await this.#fill())) {
        throw new BackupFormatError("The backup file ends too early: it is incomplete.");
      }
      const piece = this.#buffer.subarray(0, Math.min(left, this.#buffer.length));
      this.#buffer = this.#buffer.subarray(piece.length);
      left -= piece.length;
      yield piece;
    }
  }

  async json<T>(what: string): Promise<T> {
    const text = await this.line();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new BackupFormatError(`The backup file is damaged: its ${what} is not readable.`);
    }
  }

  async expect(prefix: string): Promise<string> {
    const text = await this.line();
    if (!text.startsWith(prefix)) {
      throw new BackupFormatError(`The backup file is damaged: expected "${prefix}", found "${text.slice(0, 40)}".`);
    }
    return text.slice(prefix.length);
  }
}
