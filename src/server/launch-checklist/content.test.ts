import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../platform/config.js";
import { parseLaunchChecklist, readLaunchChecklist } from "./content.js";

const values = { shopName: "Snug & Dry", informationOfficerName: "Nomsa Dube" };
const file = (body: string) => `---\ntitle: Before you open\ndate: 2026-12-02\n---\n${body}\n`;
const duty = (heading: string, rest = "Source: POPIA s55(2)\n\nRegister {{informationOfficerName}}.") =>
  `## ${heading}\n${rest}\n`;

describe("parseLaunchChecklist", () => {
  it("reads the introduction and each duty's id, title, source and explanation, placeholders filled", () => {
    const parsed = parseLaunchChecklist(
      file(`Do these first.\n\n${duty("Register your Information Officer {#information-officer}")}`),
      values,
    );
    expect(parsed).toEqual({
      title: "Before you open",
      introHtml: "<p>Do these first.</p>\n",
      items: [
        {
          id: "information-officer",
          title: "Register your Information Officer",
          source: "POPIA s55(2)",
          html: "<p>Register Nomsa Dube.</p>\n",
        },
      ],
    });
  });

  it("shows raw HTML in an explanation as text", () => {
    const parsed = parseLaunchChecklist(
      file(duty("One {#one}", "Source: CPA s82\n\n<script>alert(1)</script>")),
      values,
    );
    expect(parsed).toHaveProperty(["items", 0, "html"], "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n");
  });

  it.each<[string, string, RegExp]>([
    ["no duties", file("Only an introduction."), /has no duties/],
    ["a heading without an id", file(duty("Register")), /"## Register" has no id/],
    [
      "an id with capitals or spaces",
      file(duty("Register {#Info Officer}")),
      /the id \{#Info Officer\} of "Register" must be/,
    ],
    ["an id used twice", file(duty("One {#same}") + duty("Two {#same}")), /\{#same\} is used twice/],
    [
      "a duty without its Source line",
      file(duty("One {#one}", "Why it matters.")),
      /"One" must start with a line "Source: \.\.\."/,
    ],
    ["a duty with nothing after its source", file(duty("One {#one}", "Source: CPA s82")), /"One" has no explanation/],
    [
      "an unknown placeholder",
      file(duty("One {#one}", "Source: x\n\n{{ownerShoeSize}}")),
      /unknown placeholder \{\{ownerShoeSize\}\}/,
    ],
  ])("refuses %s", (_case, text, problem) => {
    expect(parseLaunchChecklist(text, values)).toMatch(problem);
  });
});

describe("the shipped content/launch-checklist.md", () => {
  const content = readLaunchChecklist(
    loadConfig({ NODE_ENV: "test", CONTENT_DIR: path.resolve(import.meta.dirname, "../../../content") }),
  );

  // docs/legal.md, "What the owner must do outside the software".
  it.each([
    ["information-officer", /POPIA s55\(2\)/],
    ["cgso", /CPA s82.*Code cl\. 4\.2/],
    ["operator-agreements", /POPIA s20 and s21.*s72/],
    ["breach-procedure", /POPIA s22.*eServices/],
    ["vat-registration", /VAT Act 89 of 1991 s23/],
    ["seller-details", /ECTA s43\(1\)/],
    ["paia-manual", /PAIA .*s51/],
    ["clock", /VAT Act s20\(4\)/],
    ["test-payment", /ECTA s44\(3\)/],
  ])("has the duty %s with its source", (id, source) => {
    const item = content.items.find((entry) => entry.id === id);
    expect(item?.source).toMatch(source);
    expect(item?.html.length).toBeGreaterThan(100);
  });
});
