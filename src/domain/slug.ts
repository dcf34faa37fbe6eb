/** Most slugs a name yields are short; a long name is cut at a word boundary near this length. */
const MAX_SLUG_LENGTH = 80;

/**
 * The address part of a product's name: "Pampers Baby-Dry Size 4 (44 Pack)" ->
 * "pampers-baby-dry-size-4-44-pack". Accents are dropped (é -> e), "&" reads "and", anything
 * else that is not a letter or digit separates words. A name with no letter or digit gives
 * "product".
 */
export function slugify(name: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX_SLUG_LENGTH) break;
    slug = next;
  }
  return slug || (words[0] ?? "product").slice(0, MAX_SLUG_LENGTH);
}

/** The first of `base`, `base-2`, `base-3`... that `taken` does not hold. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base}-${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** What a slug in an address may look like: anything else is not a product of ours. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
