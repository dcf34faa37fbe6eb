import { type Algorithm, hash, verify } from "@node-rs/argon2";
import pLimit from "p-limit";

/** OWASP's argon2id parameters: 19 MiB of memory, 2 passes, 1 lane. */
const ARGON2ID = {
  algorithm: 2 as Algorithm, // Argon2id (a const enum, which isolatedModules cannot import)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/**
 * A hash of no one's password with the same parameters: verifying against it when the account
 * does not exist makes an unknown user take as long as a wrong password.
 */
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$Oc7Lsrg+mZ0hrPwn6dD/WQ$Y6rkR6iYFChAf9CYaL0V3lnpOhoVa/JjyvyvkHB/9eo";

/**
 * At most two hashes at once. Each holds 19 MiB and one of libuv's four threads, which the
 * catalogue's compression and the static files' reads share: a login storm queues here
 * instead of taking all four threads and ~80 MiB. (The login rate limit bounds the storm.)
 */
export const passwordWork = pLimit(2);

export function hashPassword(password: string): Promise<string> {
  return passwordWork(() => hash(password, ARGON2ID));
}

/** True when `password` matches `passwordHash`; with no hash (unknown user) it still does the work, then says no. */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  try {
    const matches = await passwordWork(() => verify(passwordHash ?? DUMMY_HASH, password));
    return passwordHash !== null && matches;
  } catch {
    return false;
  }
}
