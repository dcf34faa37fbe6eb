import { describe, expect, it } from "vitest";
import { hashPassword, passwordWork, verifyPassword } from "./passwords.js";

describe("passwords", () => {
  it("verifies the password a hash was made from, and nothing else", async () => {
    const hash = await hashPassword("correct horse battery staple");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, "correct horse battery staple")).toBe(true);
    expect(await verifyPassword(hash, "Correct horse battery staple")).toBe(false);
    expect(await verifyPassword(null, "correct horse battery staple")).toBe(false);
    expect(await verifyPassword("not a hash", "anything")).toBe(false);
  });

  it("runs at most two hashes at once and queues the rest", async () => {
    const checks = Array.from({ length: 6 }, (_, index) => verifyPassword(null, `guess-${index}`));
    await new Promise((resolve) => setImmediate(resolve));
    expect(passwordWork.activeCount).toBe(2);
    expect(passwordWork.pendingCount).toBe(4);
    expect(await Promise.all(checks)).toEqual([false, false, false, false, false, false]);
    expect(passwordWork.activeCount + passwordWork.pendingCount).toBe(0);
  });
});
