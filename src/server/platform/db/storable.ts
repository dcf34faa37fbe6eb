/** Text as PostgreSQL can keep it (no NUL characters), cut to `max` characters. */
export function storable<T extends string | null>(text: T, max?: number): T {
  if (text === null) return text;
  const clean = text.replaceAll("\u0000", "\uFFFD");
  return (max !== undefined && clean.length > max ? clean.slice(0, max) : clean) as T;
}
