import { describe, expect, it } from "vitest";
import { FREE_TEXT_LIMITS, greeting, plainText } from "./free-text.js";

const shown = (value: string) => value.replace(/\u2060/g, "");

describe("plainText", () => {
  it.each([
    ["Thandi Mokoena", "Thandi Mokoena"],
    ["  Thandi \n\t Mokoena ", "Thandi Mokoena"],
    ["Thandi\u202eanekoM", "ThandianekoM"],
    ["a\u0000b\u200bc", "abc"],
  ])("keeps what a reader would see of %j", (value, expected) => {
    expect(plainText(value, FREE_TEXT_LIMITS.name)).toBe(expected);
  });

  it.each(["https://evil.example/login", "verify at www.evil.example", "mail help@evil.example", "evil.example"])(
    "breaks up link-like text so no mail client links it: %j",
    (value) => {
      const text = plainText(value, FREE_TEXT_LIMITS.line);
      expect(text).not.toMatch(/https?:\/\//);
      expect(text).not.toMatch(/\w\.\w/);
      expect(text).not.toMatch(/\w@\w/);
      // A reader still sees the same characters.
      expect(shown(text)).toBe(value);
    },
  );

  it("cuts at the limit and marks the cut", () => {
    expect(plainText("x".repeat(100), 60)).toBe(`${"x".repeat(59)}…`);
    expect(plainText("x".repeat(60), 60)).toBe("x".repeat(60));
  });
});

describe("greeting", () => {
  it("uses the name only when allowed", () => {
    expect(greeting("Thandi", true)).toBe("Hi Thandi,");
    expect(greeting("Thandi", false)).toBe("Hello,");
    expect(greeting("Thandi", undefined)).toBe("Hello,");
    expect(greeting("   ", true)).toBe("Hello,");
  });
});
