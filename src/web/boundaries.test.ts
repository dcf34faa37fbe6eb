import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The import boundaries live in biome.json (style/noRestrictedImports, one pattern per boundary, at
 * any depth: climbing out of a folder and down into another one's files is refused, its index is not).
 * Each case writes one file into a temporary copy of the layout, lints it with the project's own
 * biome.json, and reads whether the rule fired: nothing is ever written into the source tree.
 */
const root = path.resolve(import.meta.dirname, "../..");
const biome = path.join(root, "node_modules/.bin/biome");
let workspace: string;

beforeAll(() => {
  workspace = mkdtempSync(path.join(tmpdir(), "boundaries-"));
  const config = JSON.parse(readFileSync(path.join(root, "biome.json"), "utf8"));
  // The copy is not a git checkout: lint every file written, with the same rules.
  config.vcs = { enabled: false };
  writeFileSync(path.join(workspace, "biome.json"), JSON.stringify(config));
});

afterAll(() => rmSync(workspace, { recursive: true, force: true }));

/** Lints `source` as the file `file` (relative to the repository root): the boundary messages it gets. */
function boundaryDiagnostics(file: string, source: string): string {
  const full = path.join(workspace, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, source);
  try {
    execFileSync(biome, ["lint", "--max-diagnostics=50", file], { cwd: workspace, encoding: "utf8", stdio: "pipe" });
    return "";
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    return stdout + stderr;
  } finally {
    rmSync(full);
  }
}

describe("import boundaries (npm run lint)", () => {
  it("refuses a feature importing another feature's file", () => {
    const output = boundaryDiagnostics(
      "src/web/features/checkout/uses-cart.ts",
      'import { useCart } from "../cart/cart-context";\nexport const hook = useCart;\n',
    );
    expect(output).toContain("lint/style/noRestrictedImports");
    expect(output).toContain("only through its public index");
  });

  it("refuses it from a feature's api/ folder too", () => {
    const output = boundaryDiagnostics(
      "src/web/features/account/api/uses-catalog.ts",
      'import { PRODUCTS_KEY } from "../../catalog/api/get-products";\nexport const key = PRODUCTS_KEY;\n',
    );
    expect(output).toContain("only through its public index");
  });

  it("lets a feature use another feature's public index, shared code and the domain", () => {
    const output = boundaryDiagnostics(
      "src/web/features/checkout/uses-index.ts",
      [
        'import { useCart } from "../cart";',
        'import { productBySlugOptions } from "../catalog/api";',
        'import { apiGet } from "../../lib/api";',
        'import { Button } from "../../components/ui/button";',
        'import { orderNumber } from "../../../domain/order-status";',
        'import { createOrder } from "./api/create-order";',
        "export const used = [useCart, productBySlugOptions, apiGet, Button, orderNumber, createOrder];",
        "",
      ].join("\n"),
    );
    expect(output).not.toContain("noRestrictedImports");
  });

  it("refuses an admin area importing another area's file, from its folder or its api/", () => {
    const fromArea = boundaryDiagnostics(
      "src/web/features/admin/payments/uses-orders.ts",
      'import { OrderCard } from "../orders/order-card";\nexport const card = OrderCard;\n',
    );
    const fromApi = boundaryDiagnostics(
      "src/web/features/admin/customers/api/uses-shared.ts",
      'import { adminKeys } from "../../shared/api/keys";\nexport const keys = adminKeys;\n',
    );
    expect(fromArea).toContain("only through its public index");
    expect(fromApi).toContain("only through its public index");
  });

  it("refuses an admin area reaching into another feature's files", () => {
    const output = boundaryDiagnostics(
      "src/web/features/admin/catalog/uses-catalog.ts",
      'import { getProducts } from "../../catalog/api/get-products";\nexport const get = getProducts;\n',
    );
    expect(output).toContain("only through its public index");
  });

  it("lets an admin area use other areas' and features' indexes, its own files, shared code and the domain", () => {
    const output = boundaryDiagnostics(
      "src/web/features/admin/payments/api/uses-index.ts",
      [
        'import { OrderCard } from "../../orders";',
        'import { adminKeys } from "../../shared";',
        'import { useSession } from "../../../account";',
        'import { apiGet } from "../../../../lib/api";',
        'import { Button } from "../../../../components/ui/button";',
        'import { orderNumber } from "../../../../../domain/order-status";',
        'import { AttentionList } from "../attention-list";',
        'import { getPaymentAttention } from "./get-payment-attention";',
        "export const used = [OrderCard, adminKeys, useSession, apiGet, Button, orderNumber, AttentionList, getPaymentAttention];",
        "",
      ].join("\n"),
    );
    expect(output).not.toContain("noRestrictedImports");
  });

  it("refuses an import cycle, however far round it goes", () => {
    // Two features that import each other's index: cart -> catalog -> cart.
    const other = path.join(workspace, "src/web/features/catalog/index.ts");
    mkdirSync(path.dirname(other), { recursive: true });
    writeFileSync(other, 'import { useCart } from "../cart";\nexport const fromCatalog = useCart;\n');
    try {
      const output = boundaryDiagnostics(
        "src/web/features/cart/index.ts",
        'import { fromCatalog } from "../catalog";\nexport const useCart = () => fromCatalog;\n',
      );
      expect(output).toContain("lint/suspicious/noImportCycles");
    } finally {
      rmSync(other);
    }
  });

  it("refuses a feature importing app/", () => {
    const output = boundaryDiagnostics(
      "src/web/features/cart/uses-app.ts",
      'import { App } from "../../app/App";\nexport const app = App;\n',
    );
    expect(output).toContain("Features do not import app/");
    const fromArea = boundaryDiagnostics(
      "src/web/features/admin/orders/api/uses-app.ts",
      'import { App } from "../../../../app/App";\nexport const app = App;\n',
    );
    expect(fromArea).toContain("Features do not import app/");
  });

  it("refuses shared code importing a feature", () => {
    const output = boundaryDiagnostics(
      "src/web/lib/uses-feature.ts",
      'import { useCart } from "../features/cart";\nexport const hook = useCart;\n',
    );
    expect(output).toContain("never imports features or app/");
  });

  it("refuses the domain importing the server or the web", () => {
    const server = boundaryDiagnostics(
      "src/domain/uses-server.ts",
      'import { loadConfig } from "../server/config";\nexport const load = loadConfig;\n',
    );
    const web = boundaryDiagnostics(
      "src/domain/schemas/uses-web.ts",
      'import { apiGet } from "../../web/lib/api";\nexport const get = apiGet;\n',
    );
    expect(server).toContain("imports nothing from server/ or web/");
    expect(web).toContain("imports nothing from server/ or web/");
  });

  it("sees the same boundaries through subpath imports (#domain, #server, #web)", () => {
    const rules: [file: string, source: string, message: string][] = [
      [
        "src/domain/uses-server.ts",
        'import { loadConfig } from "#server/platform/config.js";',
        "imports nothing from server/ or web/",
      ],
      ["src/domain/uses-web.ts", 'import { apiGet } from "#web/lib/api.js";', "imports nothing from server/ or web/"],
      [
        "src/web/lib/uses-feature.ts",
        'import { useCart } from "#web/features/cart/index.js";',
        "never imports features or app/",
      ],
      ["src/web/features/cart/uses-app.ts", 'import { App } from "#web/app/App.js";', "Features do not import app/"],
      [
        "src/web/features/checkout/uses-cart.ts",
        'import { useCart } from "#web/features/cart/cart-context.js";',
        "by relative path to their index",
      ],
    ];
    for (const [file, source, message] of rules) {
      expect(boundaryDiagnostics(file, `${source}\nexport const used = 1;\n`), file).toContain(message);
    }
    const allowed = boundaryDiagnostics(
      "src/web/features/checkout/uses-shared.ts",
      [
        'import { orderNumber } from "#domain/order-status.js";',
        'import { apiGet } from "#web/lib/api.js";',
        'import { Button } from "#web/components/ui/button.js";',
        "export const used = [orderNumber, apiGet, Button];",
        "",
      ].join("\n"),
    );
    expect(allowed).not.toContain("noRestrictedImports");
  });
});
