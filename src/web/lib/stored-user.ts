import { readJson, removeKey, writeJson } from "./storage";

/**
 * The browser keeps only the signed-in user's id (sent as x-user-id, docs/product.md §7); the
 * profile itself lives in memory, loaded from /api/auth/me. An older stored user with the whole
 * profile (address, phone...) is cut down to its id the first time it is read.
 */
const USER_KEY = "user";

interface StoredUser {
  id: string;
}

function hasId(value: unknown): value is StoredUser {
  if (typeof value !== "object" || value === null) return false;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" && id !== "";
}

export function readStoredUserId(): string | null {
  const stored = readJson(USER_KEY, hasId);
  if (!stored) return null;
  if (Object.keys(stored).length > 1) writeStoredUserId(stored.id);
  return stored.id;
}

export function writeStoredUserId(id: string) {
  const stored: StoredUser = { id };
  writeJson(USER_KEY, stored);
}

export function forgetStoredUser() {
  removeKey(USER_KEY);
}
