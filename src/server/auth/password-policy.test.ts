import { describe, expect, it } from "vitest";
import {
  assertAcceptablePassword,
  loadCommonPasswords,
  PASSWORD_TOO_COMMON_MESSAGE,
  PASSWORD_TOO_SHORT_MESSAGE,
  passwordProblem,
} from "./password-policy.js";

describe("password policy", () => {
  it("refuses common and leaked passwords, whatever their case", async () => {
    for (const password of ["password1", "iloveyou", "Password1", "ILOVEYOU", "qwertyuiop", "12345678", "trustno1"]) {
      expect(await passwordProblem(password), password).toBe(PASSWORD_TOO_COMMON_MESSAGE);
    }
  });

  it("refuses a password shorter than 8 characters", async () => {
    expect(await passwordProblem("Xq7#vL2")).toBe(PASSWORD_TOO_SHORT_MESSAGE);
    expect(await passwordProblem("")).toBe(PASSWORD_TOO_SHORT_MESSAGE);
  });

  it("accepts a long or unusual password", async () => {
    for (const password of ["correct horse battery staple", "soft-and-dry-4f3a", "Xq7#vL2p", "nappies on a tuesday"]) {
      expect(await passwordProblem(password), password).toBeNull();
    }
  });

  it("loads the list once and keeps only what the length rule lets through", async () => {
    const first = loadCommonPasswords();
    expect(loadCommonPasswords()).toBe(first);
    const list = await first;
    expect(list.size).toBeGreaterThan(10_000);
    expect([...list].every((password) => password.length >= 8 && password === password.toLowerCase())).toBe(true);
  });

  it("answers 400 PASSWORD_TOO_COMMON for a common one and 400 VALIDATION_FAILED for a short one", async () => {
    await expect(assertAcceptablePassword("sunshine")).rejects.toMatchObject({
      statusCode: 400,
      code: "PASSWORD_TOO_COMMON",
      message: PASSWORD_TOO_COMMON_MESSAGE,
    });
    await expect(assertAcceptablePassword("short")).rejects.toMatchObject({
      statusCode: 400,
      code: "VALIDATION_FAILED",
    });
    await expect(assertAcceptablePassword("a sturdy passphrase")).resolves.toBeUndefined();
  });
});
