/**
 * Text a customer (or anyone who can sign up) typed, as a message may show it: plain text, on one
 * line unless asked otherwise, cut to a length, and with anything link-like broken up so that no
 * mail client turns it into a link. A "full name" such as "Your account is locked, verify at
 * https://evil.example" must never read as the shop's own words with a working link
 * (docs/decisions/020-abuse-limits.md).
 */

/** The longest a name, an address line or a reason may be in a message. */
export const FREE_TEXT_LIMITS = { name: 60, line: 120, reason: 300 } as const;

// Control characters, bidirectional overrides and zero-width characters: they can hide or reorder text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly what is removed
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
/** A scheme (https://, mailto:, www.) or a dot between word characters (evil.example): what clients link. */
const LINK_LIKE = /(\b[a-z][a-z0-9+.-]*:\/*)|(\bwww)(\.)|(\w)([.@])(?=\w)/gi;
/** Inserted where a client would otherwise see a link: invisible to a reader, it breaks the detection. */
const BREAK = "\u2060";

/** `value` as plain text for a message: invisible characters removed, whitespace collapsed, cut, links broken. */
export function plainText(value: string | null | undefined, limit: number): string {
  const clean = (value ?? "").replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
  const cut = clean.length > limit ? `${clean.slice(0, limit - 1).trimEnd()}…` : clean;
  return cut.replace(LINK_LIKE, (_match, scheme: string | undefined, www: string | undefined, _dot, before, mark) => {
    if (scheme) return `${scheme.replace(":", `${BREAK}:`)}${BREAK}`;
    if (www) return `www${BREAK}.`;
    return `${before}${BREAK}${mark}${BREAK}`;
  });
}

/** The greeting of a message: by name only when the message may use one (see greetsByName), else "Hello". */
export function greeting(name: string | null | undefined, byName: boolean | undefined): string {
  const shown = byName ? plainText(name, FREE_TEXT_LIMITS.name) : "";
  return shown ? `Hi ${shown},` : "Hello,";
}
