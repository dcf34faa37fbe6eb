import { describe, expect, it } from "vitest";
import { policyOfPath } from "./policies.js";
import { legalEntityName } from "./seller.js";

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
