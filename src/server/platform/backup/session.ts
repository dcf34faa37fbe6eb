import pg from "pg";

/** The schema holding the shop's tables; pg-boss's own schema is left out (docs/backups.md). */
export const SHOP_SCHEMA = "public";

/**
 * A connection whose COPY text is the same on every PostgreSQL version and machine: UTC times in
 * ISO form, UTF-8, floats in full. Both ends of a backup use it.
 */
export async function connectForCopy(databaseUrl: string, applicationName: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: applicationName });
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query(
      "set timezone = 'UTC'; set datestyle = 'ISO, YMD'; set intervalstyle = 'postgres'; set extra_float_digits = 3; set client_encoding = 'UTF8'",
    );
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
  return client;
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The shop's tables, parents first: a table comes after every table its foreign keys point at,
 * so loading them in this order needs no constraint switched off. Ties go by name.
 */
export async function tablesInLoadOrder(client: pg.ClientBase): Promise<string[]> {
  const { rows: tables } = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $1 and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
    [SHOP_SCHEMA],
  );
  const { rows: references } = await client.query<{ child: string; parent: string }>(
    `select c.relname as child, p.relname as parent from pg_constraint k
     join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
     join pg_namespace n on n.oid = c.relnamespace
     where k.contype = 'f' and n.nspname = $1 and c.oid <> p.oid`,
    [SHOP_SCHEMA],
  );
  const parents = new Map<string, Set<string>>(tables.map(({ name }) => [name, new Set<string>()]));
  for (const { child, parent } of references) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.find(
      ({ name }) => !placed.has(name) && [...(parents.get(name) ?? [])].every((parent) => placed.has(parent)),
    );
    if (!ready) throw new Error("The shop's tables refer to each other in a circle; they cannot be loaded in order.");
    ordered.push(ready.name);
    placed.add(ready.name);
  }
  return ordered;
}

/** A table's columns as COPY lists them (generated columns are computed again on load). */
export async function columnsOf(client: pg.ClientBase, table: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select a.attname as name from pg_attribute a
     where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     order by a.attnum`,
    [`${quoteIdent(SHOP_SCHEMA)}.${quoteIdent(table)}`],
  );
  return rows.map((row) => row.name);
}

/** How far the shop's migrations went: Drizzle's own table, absent before the first one. */
export async function migrationLevel(client: pg.ClientBase): Promise<{ count: number; lastCreatedAt: number }> {
  const { rows: present } = await client.query<{ present: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  );
  if (!present[0]?.present) return { count: 0, lastCreatedAt: 0 };
  const { rows } = await client.query<{ count: number; last: string | null }>(
    "select count(*)::int as count, max(created_at)::text as last from drizzle.__drizzle_migrations",
  );
  return { count: rows[0]?.count ?? 0, lastCreatedAt: Number(rows[0]?.last ?? 0) };
}
