import { statSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { preparePasswordFile } from "./embedded.js";

describe("initdb's password file", () => {
  let umask: number;
  // With no umask to narrow them, the modes seen are exactly the ones the code asks for.
  beforeEach(() => {
    umask = process.umask(0);
  });
  afterEach(() => {
    process.umask(umask);
  });

  it("is a 0600 file in a fresh 0700 directory of its own, holding the password", async () => {
    const pwfile = await preparePasswordFile("s3cret-pw", {});
    try {
      const dir = path.dirname(pwfile.path);
      expect(dir).not.toBe(os.tmpdir());
      expect((await fs.stat(dir)).mode & 0o777).toBe(0o700);
      expect((await fs.stat(pwfile.path)).mode & 0o777).toBe(0o600);
      expect(await fs.readFile(pwfile.path, "utf8")).toBe("s3cret-pw\n");
      expect(await fs.readdir(dir)).toEqual([path.basename(pwfile.path)]);
    } finally {
      await pwfile.remove();
    }
    expect(() => statSync(path.dirname(pwfile.path))).toThrow(/ENOENT/);
  });

  it("belongs to the postgres user when the shop runs as root", async ({ skip }) => {
    if (process.getuid?.() !== 0) skip("only root can hand a file to another user");
    const nobody = 65534;
    const pwfile = await preparePasswordFile("s3cret-pw", { uid: nobody, gid: nobody });
    try {
      for (const entry of [pwfile.path, path.dirname(pwfile.path)]) {
        const stat = await fs.stat(entry);
        expect([stat.uid, stat.gid]).toEqual([nobody, nobody]);
      }
      expect((await fs.stat(pwfile.path)).mode & 0o777).toBe(0o600);
    } finally {
      await pwfile.remove();
    }
  });
});
