import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LegalPage, PolicyVersion } from "#domain/policies.js";
import type { Order } from "#domain/schemas/orders.js";
import { loadConfig } from "#server/platform/config.js";
import { emails, orders } from "#server/platform/db/schema.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { bodyText, canonicalOf, titleOf } from "../helpers/html.js";
import { sourcePageRenderer } from "../helpers/page-renderer.js";
import { pdfText } from "../helpers/pdf.js";
import { placeTestOrder, stockedLine } from "../helpers/refunds.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

const PUBLIC_URL = "http://localhost:3000";
const REPO = path.resolve(import.meta.dirname, "../..");

/** Every setting the Legal page shows (ECTA s43(1)), each a value no default has. */
const SELLER = {
  SHOP_NAME: "Umbrella Nappies",
  SHOP_EMAIL: "hello@umbrella.example.co.za",
  SHOP_PHONE: "+27 21 555 0199",
  SHOP_ADDRESS: "9 Bree Street, Cape Town, 8001",
  SHOP_HOURS: "Mon-Fri 8AM-5PM",
  SHOP_VAT_NUMBER: "4987654321",
  SHOP_LEGAL_NAME: "Umbrella Nappies Trading",
  SHOP_LEGAL_STATUS: "(Pty) Ltd",
  SHOP_REGISTRATION_NUMBER: "2019/123456/07",
  SHOP_DIRECTORS: "Lindiwe Khumalo, Johan van der Merwe",
  SHOP_PLACE_OF_REGISTRATION: "Johannesburg, South Africa",
  SHOP_SERVICE_ADDRESS: "Unit 4, 22 Voortrekker Road, Bellville, 7530",
  SHOP_INFORMATION_OFFICER_NAME: "Nomsa Dube",
  SHOP_INFORMATION_OFFICER_EMAIL: "privacy@umbrella.example.co.za",
};

let contentDir: string;
let env: Record<string, string>;
let t: TestApp;
let admin: SignedIn;
let shopper: LoggedInUser;
/** Apps started later on the same database, as restarts of the shop: closed at the end. */
const restarts: TestApp[] = [];

/** The shop started again on the same data, with the content folder as it is now. */
async function restart(): Promise<TestApp> {
  const again = await buildTestApp(env, { pageRenderer: await sourcePageRenderer(loadConfig(env)) }, t.databaseUrl);
  restarts.push(again);
  return again;
}

beforeAll(async () => {
  // The owner's content folder, copied: the versioning tests edit it.
  contentDir = await mkdtemp(path.join(os.tmpdir(), "shop-content-"));
  await cp(path.join(REPO, "content"), contentDir, { recursive: true });
  env = { PUBLIC_URL, CONTENT_DIR: contentDir, ...SELLER };
  t = await buildTestApp(env, { pageRenderer: await sourcePageRenderer(loadConfig(env)) });
  admin = await signInAsAdmin(t);
  shopper = await registerAndLogin(t, { fullName: "Thandi Mokoena" });
});
afterAll(async () => {
  for (const app of restarts) await app.close();
  await t?.close();
  await rm(contentDir, { recursive: true, force: true });
});

const get = (url: string, app: TestApp = t, headers: Record<string, string> = {}) =>
  app.app.inject({ method: "GET", url, headers });

describe("the Legal page (ECTA s43(1))", () => {
  it.each(Object.entries(SELLER))("shows %s from the configuration", async (_setting, value) => {
    const page = await get("/legal");
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(bodyText(page.body)).toContain(value);
  });

  it("answers every item of s43(1), (a) to (r), with the CGSO, its Code and the complaints path", async () => {
    const legal = (await get("/api/legal")).json() as LegalPage;
    expect(legal.items.map((item) => item.item)).toEqual("abcdefghijklmnopqr".split(""));
    expect(legal).toMatchObject({ demo: false, seller: "Umbrella Nappies Trading (Pty) Ltd" });
    const text = bodyText((await get("/legal")).body);
    for (const item of legal.items) expect(text).toContain(item.title);
    expect(text).toContain("Consumer Goods and Services Industry Code");
    expect(text).toContain("www.cgso.org.za");
    // The CGSO's contact details, not only its website.
    expect(text).toContain("telephone 0860 000 272, e-mail info@cgso.org.za");
    expect(text).toMatch(/complaint[\s\S]*within 15 business days/);
    expect(text).toContain("card or instant EFT through PayFast");
    expect(text).toContain("R75.00 on orders below R500.00");
    expect(text).toMatch(/2-5 business days/);
    expect(text).toMatch(
      /keep orders and invoices on our servers in our database for 7 years after the end of the tax year \(the end of February\) in which the order was placed, plus the 12 months until that year's income tax return is due: a company keeps its records for 7 years \(Companies Act s24\), and tax records are kept 5 years from the submission of the return \(Tax Administration Act s29\(3\)\(a\)\)/,
    );
    expect(titleOf((await get("/legal")).body)).toBe("Legal | Umbrella Nappies");
    expect(canonicalOf((await get("/legal")).body)).toBe(`${PUBLIC_URL}/legal`);
  });

  it("puts the legal name, status, registration number and the CGSO note in the footer, with Legal and Privacy Policy links", async () => {
    const page = (await get("/legal")).body;
    const footer = /<footer[\s\S]*<\/footer>/.exec(page)?.[0] ?? "";
    expect(bodyText(`<div id="root">${footer}</div><script type="application/json" id="page-data">`)).toMatch(
      /run by Umbrella Nappies Trading \(Pty\) Ltd\s*, reg\. no\. 2019\/123456\/07\s*\. Bound by the\s*Consumer Goods and Services Industry Code\s*: complain to us first, then to the CGSO \(\s*www\.cgso\.org\.za\s*,\s*0860 000 272\s*\)/,
    );
    expect(footer).toContain('href="/legal"');
    expect(footer).toContain('href="/privacy"');
  });

  it("says the demo business's details are a demo's when no legal name is set", async () => {
    const demo = await buildTestApp({ PUBLIC_URL });
    restarts.push(demo);
    const legal = (await get("/api/legal", demo)).json() as LegalPage;
    expect(legal).toMatchObject({ demo: true, seller: "Snug & Dry Demo Trading (Pty) Ltd" });
    expect(legal.items.find((item) => item.item === "a")?.text).toContain("We are not registered for VAT.");
  });

  it("states the retention and session times the settings decide, on /legal and in the Privacy Policy", async () => {
    const longerEnv = { ...env, RETENTION_YEARS: "9", SESSION_IDLE_DAYS: "3", SESSION_ABSOLUTE_DAYS: "14" };
    const longer = await buildTestApp(longerEnv, { pageRenderer: await sourcePageRenderer(loadConfig(longerEnv)) });
    restarts.push(longer);
    expect(bodyText((await get("/legal", longer)).body)).toContain(
      "We keep orders and invoices on our servers in our database for 9 years after the end of the tax year",
    );
    const privacy = bodyText((await get("/privacy", longer)).body);
    expect(privacy).toMatch(/Orders and invoices:\s*9 years after the end of the tax year/);
    expect(privacy).toContain("kept for the 9 years above");
    expect(bodyText((await get("/paia-manual", longer)).body)).toMatch(/for\s*9 years after the end of the tax year/);
    expect(privacy).toContain("after 3 days unused or after 14 days");
    // The defaults, as the shop started above shows them.
    const defaults = bodyText((await get("/privacy")).body);
    expect(defaults).toContain("kept for the 7 years above");
    expect(defaults).toMatch(
      /plus the 12 months until the income\s+tax return for that year is due\. A company keeps its accounting records for 7 years \(Companies\s+Act section 24\), and tax records are kept for 5 years from the date the return was submitted\s+\(Tax Administration Act section 29\(3\)\(a\)\)/,
    );
    const paia = bodyText((await get("/paia-manual")).body);
    expect(paia).toMatch(
      /for\s*7 years after the end of the tax year[\s\S]*Tax Administration Act section 29\(3\)\(a\)/,
    );
    expect(defaults).toContain("after 7 days unused or after 30 days");
  });
});

describe("the policies, rendered from the owner's Markdown", () => {
  it.each([
    ["/terms", "Terms and Conditions", "2 December 2026"],
    ["/return-policy", "Return Policy", "2 December 2026"],
    ["/privacy", "Privacy Policy", "2 December 2026"],
    ["/paia-manual", "PAIA Manual", "2 December 2026"],
  ])("%s is a server-rendered page with its title, date and version", async (url, title, date) => {
    const page = await get(url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(new RegExp(`<h1[^>]*>${title}</h1>`));
    expect(bodyText(page.body)).toContain(`Effective date: ${date} (version 1)`);
    expect(titleOf(page.body)).toBe(`${title} | Umbrella Nappies`);
    expect(canonicalOf(page.body)).toBe(`${PUBLIC_URL}${url}`);
    // Every placeholder was filled in from the configuration.
    expect(page.body).not.toContain("{{");
  });

  it("fills the Privacy Policy's owner facts from the configuration, names every recipient and links the PAIA manual", async () => {
    const page = await get("/privacy");
    const text = bodyText(page.body);
    expect(text).toContain("Nomsa Dube, privacy@umbrella.example.co.za");
    expect(text).toContain("Umbrella Nappies Trading (Pty) Ltd");
    for (const recipient of ["PayFast", "The courier", "Our e-mail provider", "An advertising service, only if"]) {
      expect(text).toContain(recipient);
    }
    expect(text).toMatch(/Orders and invoices: 7 years/);
    expect(page.body).toContain('href="https://www.inforegulator.org.za"');
    expect(page.body).toContain('href="/paia-manual"');
  });

  it("states the return rules of the Return Policy and the Terms: 7 days sealed, 30 days to refund, 6 months defective, 15 business days", async () => {
    for (const url of ["/return-policy", "/terms"]) {
      const text = bodyText((await get(url)).body);
      expect(text, url).toMatch(/sealed, unopened goods[^.]*within 7 days from\s+the day you receive\s+the goods/i);
      expect(text, url).toMatch(/ECTA section 44\(3\)/);
      expect(text, url).toMatch(/ECTA section 46\(3\)/);
      expect(text, url).not.toMatch(/delivery promise/);
      if (url === "/return-policy") expect(text).toContain("Your CPA s20 rights are not affected");
      expect(text, url).toMatch(/delivery fee included, within 30 days/);
      expect(text, url).toMatch(/within 6 months from the day you receive the goods/i);
      expect(text, url).toMatch(/15 business days/);
      expect(text, url).toMatch(/the day you tell us you\s+received them/);
      expect(text, url).toMatch(/Sunday or a public holiday, you have until\s+the\s+next business day/);
      expect(text, url).toMatch(/Opened hygiene products[^.]*(only|unless)[^.]*defective/i);
    }
  });

  it("moves the terms' old address to the new one", async () => {
    const moved = await get("/terms-and-conditions");
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe("/terms");
  });

  it.each([
    ["/api/policies/cookies", 404],
    ["/api/policies/terms/versions/99", 404],
    ["/api/policies/terms/versions/0", 404],
    ["/api/policies/terms/versions/1e3", 404],
    ["/terms/v/99", 404],
    ["/terms/v/0", 404],
    ["/terms/v/two", 404],
  ])("answers %s with %i", async (url, status) => {
    const answer = await get(url);
    expect(answer.statusCode).toBe(status);
    if (url.startsWith("/api/")) expect(answer.json()).toMatchObject({ code: "NOT_FOUND" });
    else expect(answer.body).toContain('<meta name="robots" content="noindex" />');
  });
});

describe("versions: what each order was placed under", () => {
  let first: { orderId: string };
  let second: { orderId: string };
  let edited: TestApp;

  const order = async (id: string, app: TestApp = t) =>
    (await get(`/api/orders/${id}`, app, shopper.headers)).json() as Order;

  it("keeps the versions in force with each order, and a change published at restart leaves the old one readable", async () => {
    const line = await stockedLine(t);
    first = await placeTestOrder(t, shopper, [line]);
    expect((await order(first.orderId)).policies).toEqual([
      { kind: "terms", title: "Terms and Conditions", version: 1, effectiveDate: "2026-12-02", path: "/terms/v/1" },
      {
        kind: "return-policy",
        title: "Return Policy",
        version: 1,
        effectiveDate: "2026-12-02",
        path: "/return-policy/v/1",
      },
      { kind: "privacy", title: "Privacy Policy", version: 1, effectiveDate: "2026-12-02", path: "/privacy/v/1" },
    ]);

    // The owner edits the terms (with markup that must stay text) and restarts the shop.
    const file = path.join(contentDir, "policies", "terms.md");
    const text = await readFile(file, "utf8");
    await writeFile(
      file,
      `${text.replace("date: 2026-12-02", "date: 2027-01-15")}\n## New section\n\nDelivery now also on Saturdays. <script>alert("x")</script> [tap](javascript:alert(1))\n`,
    );
    edited = await restart();

    const latest = (await get("/api/policies/terms", edited)).json() as PolicyVersion;
    expect(latest).toMatchObject({ version: 2, effectiveDate: "2027-01-15", path: "/terms/v/2" });
    expect(latest.versions.map((version) => version.path)).toEqual(["/terms/v/2", "/terms/v/1"]);
    expect(latest.html).toContain("Delivery now also on Saturdays.");
    expect(latest.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(latest.html).not.toContain("<script");
    expect(latest.html).not.toContain('href="javascript:');

    const plain = await get("/terms", edited);
    expect(bodyText(plain.body)).toContain("Delivery now also on Saturdays.");
    expect(bodyText(plain.body)).toContain("Effective date: 15 January 2027 (version 2)");
    const old = await get("/terms/v/1", edited);
    expect(old.statusCode).toBe(200);
    expect(bodyText(old.body)).not.toContain("Saturdays");
    expect(bodyText(old.body)).toContain("This is an earlier version");
    expect(canonicalOf(old.body)).toBe(`${PUBLIC_URL}/terms/v/1`);

    // The files that did not change keep their version.
    expect(((await get("/api/policies/privacy", edited)).json() as PolicyVersion).version).toBe(1);

    second = await placeTestOrder(edited, shopper, [await stockedLine(edited)]);
    expect((await order(second.orderId, edited)).policies.map((policy) => policy.path)).toEqual([
      "/terms/v/2",
      "/return-policy/v/1",
      "/privacy/v/1",
    ]);
    expect((await order(first.orderId, edited)).policies.map((policy) => policy.path)).toEqual([
      "/terms/v/1",
      "/return-policy/v/1",
      "/privacy/v/1",
    ]);
  });

  it("publishes nothing new when the shop restarts with the same files", async () => {
    const again = await restart();
    expect(((await get("/api/policies/terms", again)).json() as PolicyVersion).versions).toHaveLength(2);
  });

  it("publishes a new version when a setting a policy shows changes (a new Information Officer)", async () => {
    const changed = await buildTestApp(
      { ...env, SHOP_INFORMATION_OFFICER_NAME: "Sipho Ndlovu" },
      { pageRenderer: await sourcePageRenderer(loadConfig(env)) },
      t.databaseUrl,
    );
    restarts.push(changed);
    const privacy = (await get("/api/policies/privacy", changed)).json() as PolicyVersion;
    expect(privacy.version).toBe(2);
    expect(privacy.html).toContain("Sipho Ndlovu");
    const first = await get("/api/policies/privacy/versions/1", changed);
    expect((first.json() as PolicyVersion).html).toContain("Nomsa Dube");
  });

  it("links the versions from the confirmation e-mail and the invoice, on the shop's public address", async () => {
    const paid = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/orders/${first.orderId}/confirm-payment`,
      headers: { cookie: admin.cookie },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const [message] = await t.db
      .select({ id: emails.id })
      .from(emails)
      .where(and(eq(emails.kind, "order_confirmation"), eq(emails.eventKey, first.orderId)));
    if (!message) throw new Error("no confirmation written");
    await t.app.mail.deliverDue();
    const rendered = (await get(`/api/admin/emails/${message.id}`, t, { cookie: admin.cookie })).json() as {
      html: string;
      text: string;
    };
    for (const address of ["/terms/v/1", "/return-policy/v/1", "/privacy/v/1"]) {
      expect(rendered.html).toContain(`href="${PUBLIC_URL}${address}"`);
      expect(rendered.text).toContain(`${PUBLIC_URL}${address}`);
    }
    expect(rendered.text).toContain("Terms and Conditions, version 1 of 2 December 2026");

    const invoice = await get(`/api/orders/${first.orderId}/invoice.pdf`, t, shopper.headers);
    expect(invoice.statusCode).toBe(200);
    const text = (await pdfText(invoice.rawPayload)).replace(/\s+/g, " ");
    for (const address of ["/terms/v/1", "/return-policy/v/1", "/privacy/v/1"]) {
      expect(text).toContain(`${PUBLIC_URL}${address}`);
    }
    expect(text).toContain("Return Policy, version 1 of 2 December 2026");
  });

  it("shows no versions for an order placed before the policies were versioned", async () => {
    await t.db
      .update(orders)
      .set({ termsVersionId: null, returnPolicyVersionId: null, privacyVersionId: null })
      .where(eq(orders.id, second.orderId));
    expect((await order(second.orderId)).policies).toEqual([]);
  });
});
