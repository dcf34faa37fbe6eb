import { describe, expect, it } from "vitest";
import { policyOfPath } from "./policies.js";
import { isDemoContact, legalEntityName } from "./seller.js";

describe("legalEntityName", () => {
  it.each([
    ["Snug & Dry Demo Trading", "(Pty) Ltd", "Snug & Dry Demo Trading (Pty) Ltd"],
    ["Umbrella Nappies", "CC", "Umbrella Nappies CC"],
    ["Care Collective", "NPC", "Care Collective NPC"],
    ["Thandi Mokoena", "sole proprietor", "Thandi Mokoena, sole proprietor"],
    ["Mokoena and Dube", "partnership", "Mokoena and Dube, partnership"],
    ["Thandi Mokoena", "", "Thandi Mokoena"],
  ])("names %s with status %j as %j", (name, status, expected) => {
    expect(legalEntityName(name, status)).toBe(expected);
  });
});

describe("policyOfPath", () => {
  it.each([
    ["/privacy", { kind: "privacy", version: null }],
    ["/terms/v/2", { kind: "terms", version: 2 }],
    ["/paia-manual/", { kind: "paia-manual", version: null }],
    ["/terms/v/0", null],
    ["/terms/v/02", null],
    ["/cookies", null],
    ["/terms/v/", null],
    ["/legal", null],
  ])("reads %s as %j", (path, expected) => {
    expect(policyOfPath(path)).toEqual(expected);
  });
});

describe("isDemoContact", () => {
  it.each<[Parameters<typeof isDemoContact>[0], string, boolean]>([
    ["email", "hello@snuganddry.co.za", true],
    ["email", " Hello@SnugAndDry.co.za ", true],
    ["email", "orders@umbrella-nappies.co.za", false],
    ["phone", "+27 21 555 0134", true],
    ["phone", "021 555 0134", true],
    ["phone", "(021) 555-0134", true],
    ["phone", "+27 21 555 0135", false],
    ["address", "14 Loop Street, Cape Town, 8001", true],
    ["address", "14 loop street cape town 8001", true],
    ["address", "14 Loop Street, Cape Town, 8000", false],
    ["address", "Unit 4, 22 Voortrekker Road, Bellville, 7530", false],
  ])("reads the %s %j as the demo shop's: %s", (detail, value, expected) => {
    expect(isDemoContact(detail, value)).toBe(expected);
  });
});
