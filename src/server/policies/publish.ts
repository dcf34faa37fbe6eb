import { desc, eq, inArray, sql } from "drizzle-orm";
import { type PolicyKind, type PolicyVersion, policyVersionPath } from "#domain/policies.js";
import { formatCalendarDate } from "#domain/sa-format.js";
import type { OrderPolicy } from "#domain/schemas/orders.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { policyVersions } from "../platform/db/schema.js";
import type { PolicyFile } from "./content.js";
import { renderPolicyMarkdown } from "./render.js";

/** The version of each policy this process publishes: what new orders are placed under. */
export type CurrentPolicies = Record<PolicyKind, { id: number; version: number }>;

/**
 * Publishes the policy files: a file whose text hashes differently from its kind's latest version
 * becomes a new version; an unchanged one keeps its version. One instance at a time decides (a
 * transaction-level advisory lock), so two shops starting together make one version, not two.
 */
export async function publishPolicies(db: Database, files: readonly PolicyFile[]): Promise<CurrentPolicies> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('policy_versions'))`);
    const current: Partial<CurrentPolicies> = {};
    for (const file of files) {
      const [latest] = await tx
        .select({ id: policyVersions.id, version: policyVersions.version, contentHash: policyVersions.contentHash })
        .from(policyVersions)
        .where(eq(policyVersions.kind, file.kind))
        .orderBy(desc(policyVersions.version))
        .limit(1);
      if (latest && latest.contentHash === file.contentHash) {
        current[file.kind] = { id: latest.id, version: latest.version };
        continue;
      }
      const version = (latest?.version ?? 0) + 1;
      const [row] = await tx
        .insert(policyVersions)
        .values({
          kind: file.kind,
          version,
          title: file.title,
          effectiveDate: file.effectiveDate,
          contentHash: file.contentHash,
          body: file.body,
        })
        .returning({ id: policyVersions.id });
      current[file.kind] = { id: (row as { id: number }).id, version };
    }
    return current as CurrentPolicies;
  });
}

/**
 * Publishes the policy files once (at start: buildApp waits for it) and reads published versions;
 * each version's HTML is rendered once per app (versions never change).
 */
export class PolicyStore {
  private readonly rendered = new Map<number, string>();
  private published: Promise<CurrentPolicies> | null = null;

  constructor(
    private readonly db: Database,
    private readonly files: readonly PolicyFile[],
  ) {}

  /**
   * The versions this process publishes: what new orders are placed under. Published on the first
   * call; a call that failed (the database was down) is tried again by the next one.
   */
  current(): Promise<CurrentPolicies> {
    this.published ??= publishPolicies(this.db, this.files).catch((error: unknown) => {
      this.published = null;
      throw error;
    });
    return this.published;
  }

  /** A policy's version (the latest when `version` is null) with the list of every version; null when there is none. */
  async version(kind: PolicyKind, version: number | null): Promise<PolicyVersion | null> {
    await this.current();
    const rows = await this.db
      .select({
        id: policyVersions.id,
        version: policyVersions.version,
        title: policyVersions.title,
        effectiveDate: policyVersions.effectiveDate,
      })
      .from(policyVersions)
      .where(eq(policyVersions.kind, kind))
      .orderBy(desc(policyVersions.version));
    const chosen = version === null ? rows[0] : rows.find((row) => row.version === version);
    if (!chosen) return null;
    return {
      kind,
      title: chosen.title,
      version: chosen.version,
      effectiveDate: chosen.effectiveDate,
      html: await this.html(chosen.id),
      path: policyVersionPath(kind, chosen.version),
      versions: rows.map((row) => ({
        version: row.version,
        effectiveDate: row.effectiveDate,
        path: policyVersionPath(kind, row.version),
      })),
    };
  }

  private async html(id: number): Promise<string> {
    const cached = this.rendered.get(id);
    if (cached !== undefined) return cached;
    const [row] = await this.db
      .select({ body: policyVersions.body })
      .from(policyVersions)
      .where(eq(policyVersions.id, id));
    const html = renderPolicyMarkdown(row?.body ?? "");
    this.rendered.set(id, html);
    return html;
  }
}

/** An order's policy versions, for its links: kind, version, title and address by version id. */
export async function policyVersionsById(
  db: Database | Transaction,
  ids: readonly number[],
): Promise<Map<number, OrderPolicy>> {
  const known = [...new Set(ids)];
  if (known.length === 0) return new Map();
  const rows = await db
    .select({
      id: policyVersions.id,
      kind: policyVersions.kind,
      version: policyVersions.version,
      title: policyVersions.title,
      effectiveDate: policyVersions.effectiveDate,
    })
    .from(policyVersions)
    .where(inArray(policyVersions.id, known));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        kind: row.kind,
        title: row.title,
        version: row.version,
        effectiveDate: row.effectiveDate,
        path: policyVersionPath(row.kind, row.version),
      },
    ]),
  );
}

/** "Terms and Conditions, version 2 of 26 November 2026": how e-mails and invoices name a version. */
export function policyVersionLabel(policy: Pick<OrderPolicy, "title" | "version" | "effectiveDate">): string {
  return `${policy.title}, version ${policy.version} of ${formatCalendarDate(policy.effectiveDate)}`;
}
