/** localStorage that never throws: corrupt entries are removed silently (docs/product.md §3). */
export function readJson<T>(key: string, isValid: (value: unknown) => value is T): T | null {
  let raw: string | null;
  try {
    raw = window.localStorage.getItem(key);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (isValid(value)) return value;
  } catch {
    // fall through: corrupt
  }
  removeKey(key);
  return null;
}

export function writeJson(key: string, value: unknown) {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the in-memory state still works for this visit.
  }
}

export function removeKey(key: string) {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // ignore
  }
}
