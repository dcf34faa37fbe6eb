import { describe, expect, it } from "vitest";
import { parsePolicy } from "./content.js";

const values = { shopName: "Snug & Dry", legalName: "Snug & Dry Demo Trading" };
const file = (front: string, body = "Text by {{legalName}}.") => `---\n${front}\n---\n${body}\n`;

describe("parsePolicy", () => {
  it("reads the title and date and fills the placeholders", () => {
    const parsed = parsePolicy(file('title: "Terms and Conditions"\ndate: 2026-11-26'), values);
    expect(parsed).toMatchObject({
      title: "Terms and Conditions",
      effectiveDate: "2026-11-26",
      body: "Text by Snug & Dry Demo Trading.",
    });
    expect(parsed).toHaveProperty("contentHash", expect.stringMatching(/^[0-9a-f]{64}$/));
  });

  it("hashes the filled-in text: a changed date, body or placeholder value is a new hash", () => {
    const hash = (text: string, filled = values) => (parsePolicy(text, filled) as { contentHash: string }).contentHash;
    const base = file("title: Terms\ndate: 2026-11-26");
    expect(hash(base)).toBe(hash(`\uFEFF${base}`));
    expect(hash(base)).not.toBe(hash(file("title: Terms\ndate: 2026-11-27")));
    expect(hash(base)).not.toBe(hash(file("title: Terms\ndate: 2026-11-26", "Other text by {{legalName}}.")));
    expect(hash(base)).not.toBe(hash(base, { ...values, legalName: "Another Trading CC" }));
  });

  it.each<[string, string, RegExp]>([
    ["no front matter", "Just text", /no front matter/],
    ["no title", file("date: 2026-11-26"), /no `title:`/],
    ["no date", file("title: Terms"), /`date:` must be a date/],
    ["a date that is not a day", file("title: Terms\ndate: 2026-02-30"), /`date:` must be a date/],
    ["a date in another format", file("title: Terms\ndate: 26/11/2026"), /`date:` must be a date/],
    ["a line that is not key: value", file("title: Terms\ndate: 2026-11-26\njust words"), /not `key: value`/],
    ["an unknown placeholder", file("title: Terms\ndate: 2026-11-26", "By {{ownerName}}."), /\{\{ownerName\}\}/],
    ["no text", file("title: Terms\ndate: 2026-11-26", "  "), /no text after its front matter/],
  ])("refuses a file with %s, saying what is wrong", (_name, text, message) => {
    expect(parsePolicy(text, values)).toMatch(message);
  });
});
