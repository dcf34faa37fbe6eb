/**
 * npm run seed:orders -- --orders 200000 [--seed 1] [--end 2026-11-25T12:00:00Z]
 *
 * Fills the shop's database (DATABASE_URL, or the embedded PostgreSQL in DATA_DIR, as `npm start`)
 * with realistic customers and orders over the two years before --end (default now): one to four
 * lines each from the real catalogue (standard- and zero-rated, each line with its VAT class and the
 * rate of the day it was placed), every status, the newest ones still waiting for payment, the paid
 * ones with their invoice numbers. The
 * same --seed gives the same data (ids included), and running it again adds nothing; another seed
 * adds another set. Written by a few INSERT ... SELECT statements over generate_series, so 200,000
 * orders take seconds, not minutes.
 */
import { parseArgs } from "node:util";
import pg from "pg";
import { ConfigError, loadConfig, loadEnvFile } from "../platform/config.js";
import { DataDirInUseError } from "../platform/db/data-dir-lock.js";
import { NoClusterError } from "../platform/db/embedded.js";
import { openDatabase } from "../platform/db/open.js";
import { SA_ZONE_LITERAL } from "../platform/db/sa-time.js";
import { errWithoutValues } from "../platform/log-errors.js";
import { seedCatalog } from "../seed/seed.js";
import { isEntryPoint } from "./entry-point.js";

export interface SeedOrdersOptions {
  orders: number;
  seed?: number;
  /** The newest order's moment; the others spread over the two years before it. */
  end?: Date;
}

const FIRST_NAMES = `Thandi Sipho Lerato Pieter Anele Johan Nomsa Kagiso Ayesha Themba Zanele Riaan Naledi Bongani Fatima Lindiwe Mpho Sarah Tshepo Annelie Mandla Precious Yusuf Karabo Elize Sibusiso Palesa Ruan Nandi Lwazi`;
const LAST_NAMES = [
  ..."Mokoena Naidoo Dlamini Botha Nkosi Pillay Khumalo Ndlovu Pretorius Mahlangu Sithole Jacobs Mthembu".split(" "),
  ..."Smith Govender Zulu Venter Maseko Adams Mabaso Steyn Hendricks Molefe Coetzee Cele Moodley Ngcobo Radebe".split(
    " ",
  ),
  "van der Merwe",
  "du Plessis",
];
const PLACES: [city: string, province: string, zip: string][] = [
  ["Johannesburg", "Gauteng", "2001"],
  ["Pretoria", "Gauteng", "0002"],
  ["Soweto", "Gauteng", "1804"],
  ["Cape Town", "Western Cape", "8001"],
  ["Stellenbosch", "Western Cape", "7600"],
  ["Durban", "KwaZulu-Natal", "4001"],
  ["Pietermaritzburg", "KwaZulu-Natal", "3201"],
  ["Gqeberha", "Eastern Cape", "6001"],
  ["East London", "Eastern Cape", "5201"],
  ["Bloemfontein", "Free State", "9301"],
  ["Polokwane", "Limpopo", "0700"],
  ["Mbombela", "Mpumalanga", "1200"],
  ["Kimberley", "Northern Cape", "8301"],
  ["Rustenburg", "North West", "0300"],
];
const STREETS = ["Jacaranda Street", "Protea Road", "Church Street", "Long Street", "Main Road", "Acacia Avenue"];
const DOMAINS = ["gmail.com", "outlook.com", "yahoo.co.za", "webmail.co.za", "icloud.com", "mweb.co.za"];

const sqlArray = (values: readonly string[]) => `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(",")}]`;

/**
 * `r(salt, k)`: the k-th pseudo-random 16-bit number (0-65535) of a row, from md5(seed, salt, row):
 * the same on every run and every PostgreSQL, whatever the plan.
 */
const r = (hash: string, k: number) => `('x' || substr(${hash}, ${k * 4 + 1}, 4))::bit(16)::int`;

/** A version 4 UUID made of an md5 (its version and variant bits set), so every check of an id takes it. */
const uuidOf = (hash: string) =>
  `(substr(${hash}, 1, 12) || '4' || substr(${hash}, 14, 3) || substr('89ab', 1 + ('x' || substr(${hash}, 17, 1))::bit(4)::int % 4, 1) || substr(${hash}, 18, 15))::uuid`;

/**
 * Writes the customers, orders and lines in one transaction. Answers how many of this seed's orders
 * the database holds afterwards and how many lines were added (none when the seed was there already).
 */
export async function seedOrders(client: pg.ClientBase, { orders, seed = 1, end = new Date() }: SeedOrdersOptions) {
  const customers = Math.max(50, Math.round(orders / 8));
  // The newest orders are minutes old (some still waiting for payment); the rest spread over two years.
  const recent = Math.max(5, Math.round(orders / 2000));
  await client.query("begin");
  try {
    await client.query("set local synchronous_commit = off");
    await client.query("set local work_mem = '64MB'");
    await client.query(
      `create temp table seed_products on commit drop as
         select (row_number() over (order by id) - 1)::int as k, id, name, price_cents, sizes, vat_class
         from products where jsonb_array_length(sizes) > 0`,
    );
    const { rows: products } = await client.query<{ n: number }>("select count(*)::int as n from seed_products");
    const productCount = products[0]?.n ?? 0;
    if (productCount === 0) throw new Error("The catalogue has no products: start the shop once to seed it.");

    const h = `md5($1::text || ':c:' || c)`;
    await client.query(
      `create temp table seed_customers on commit drop as
       select c, ${uuidOf("md5($1::text || ':customer:' || c)")} as id, first, last,
         lower(replace(first || '.' || last, ' ', '')) || c || '@' || (${sqlArray(DOMAINS)})[1 + ${r(h, 3)} % ${DOMAINS.length}] as email,
         '0' || (60 + ${r(h, 4)} % 25) || ' ' || lpad((${r(h, 5)} % 1000)::text, 3, '0') || ' ' || lpad((${r(h, 6)} % 10000)::text, 4, '0') as phone,
         (1 + ${r(h, 7)} % 199) || ' ' || (${sqlArray(STREETS)})[1 + ${r(h, 1)} % ${STREETS.length}] as address,
         1 + ${r(h, 2)} % ${PLACES.length} as place
       from generate_series(1, $2::int) as c,
         lateral (select (${sqlArray(FIRST_NAMES.split(" "))})[1 + ${r(h, 0)} % ${FIRST_NAMES.split(" ").length}] as first,
                         (${sqlArray(LAST_NAMES)})[1 + ${r(h, 1)} % ${LAST_NAMES.length}] as last) as names`,
      [seed, customers],
    );
    await client.query(
      `insert into users (id, username, email, password_hash, full_name, phone, address, city, zip_code, created_at)
       select id, 'seed' || $1::text || '_' || c, email, '!seeded: no password', first || ' ' || last, phone, address,
         (${sqlArray(PLACES.map((p) => p[0]))})[place], (${sqlArray(PLACES.map((p) => p[2]))})[place],
         $2::timestamptz - interval '731 days'
       from seed_customers
       on conflict do nothing`,
      [seed, end.toISOString()],
    );

    const o = `md5($1::text || ':o:' || n)`;
    await client.query(
      `create temp table seed_orders on commit drop as
       select n, ${uuidOf("md5($1::text || ':order:' || n)")} as id, 1 + ${r(o, 0)} % $3::int as customer,
         ${r(o, 1)} % 10 = 0 as guest,
         case when n <= $4::int then $2::timestamptz - (n - 1 + ${r(o, 2)} / 65536.0) * (interval '50 minutes' / $4::int)
              else $2::timestamptz - interval '1 hour' - ((n - $4::int) + ${r(o, 2)} / 65536.0) * (interval '730 days' / ($5::int - $4::int + 1))
         end as created_at,
         ${r(o, 3)} % 100 as roll, ${r(o, 4)} as detail, 1 + ${r(o, 5)} % 4 as line_count
       from generate_series(1, $5::int) as n`,
      [seed, end.toISOString(), customers, recent, orders],
    );
    const l = `md5($1::text || ':l:' || n || ':' || position)`;
    await client.query(
      `create temp table seed_lines on commit drop as
       select n, position - 1 as position, p.id as product_id, p.name, p.price_cents, p.vat_class,
         p.sizes ->> (${r(l, 1)} % jsonb_array_length(p.sizes)) as size, 1 + ${r(l, 2)} % 3 as quantity
       from seed_orders
       cross join lateral generate_series(1, line_count) as position
       join seed_products p on p.k = ${r(l, 0)} % $2::int`,
      [seed, productCount],
    );
    const { rowCount } = await client.query(
      `with totals as (
         select n, sum(price_cents * quantity)::int as subtotal from seed_lines group by n
       ), shaped as (
         select o.*, t.subtotal, case when t.subtotal >= 50000 then 0 else 7500 end as fee,
           case
             when o.n <= $1::int then (array['pending', 'pending', 'completed', 'cancelled'])[1 + o.roll % 4]
             when o.created_at > $2::timestamptz - interval '3 days' then case when o.roll < 45 then 'completed' when o.roll < 90 then 'processed' else 'cancelled' end
             else case when o.roll < 86 then 'processed' when o.roll < 98 then 'cancelled' else 'completed' end
           end as status
         from seed_orders o join totals t using (n)
       ), inserted as (
         insert into orders (id, user_id, status, subtotal_cents, delivery_fee_cents, total_cents, customer_email,
           delivery_name, delivery_phone, delivery_address, delivery_city, delivery_province, delivery_zip_code,
           paid_by, paid_at, shipped_at, courier, tracking_number, stock_state, cancel_reason, cancelled_at, created_at,
           delivery_vat_rate_bp)
         select s.id, case when s.guest then null else u.id end, s.status, s.subtotal, s.fee, s.subtotal + s.fee,
           c.email,
           c.first || ' ' || c.last, c.phone, c.address,
           (${sqlArray(PLACES.map((p) => p[0]))})[c.place], (${sqlArray(PLACES.map((p) => p[1]))})[c.place],
           (${sqlArray(PLACES.map((p) => p[2]))})[c.place],
           case when s.status in ('completed', 'processed') then
             case when s.detail % 50 = 0 then 'admin' when s.detail % 50 < 4 then 'reconcile' else 'itn' end end,
           case when s.status in ('completed', 'processed') then s.created_at + (2 + s.detail % 18) * interval '1 minute' end,
           case when s.status = 'processed' then s.created_at + (20 + s.detail % 40) * interval '1 hour' end,
           case when s.status = 'processed' and s.detail % 3 > 0 then (array['The Courier Guy', 'Aramex', 'PostNet'])[1 + s.detail % 3] end,
           case when s.status = 'processed' and s.detail % 3 > 0 then 'SD' || lpad((s.detail * 7919 % 1000000)::text, 6, '0') end,
           'none',
           case when s.status = 'cancelled' then (array['expired', 'expired', 'expired', 'shopper', 'admin'])[1 + s.detail % 5] end,
           case when s.status = 'cancelled' then s.created_at + interval '1 hour' end,
           s.created_at,
           vat_rate('standard', (s.created_at at time zone ${SA_ZONE_LITERAL})::date)
         from shaped s
         join seed_customers c on c.c = s.customer
         left join users u on u.id = c.id
         on conflict (id) do nothing
         returning id
       )
       insert into order_items (order_id, product_id, position, name, size, quantity, unit_price_cents, vat_class, vat_rate_bp)
       select o.id, l.product_id, l.position, l.name, coalesce(l.size, 'One size'), l.quantity, l.price_cents,
         l.vat_class, vat_rate(l.vat_class, (o.created_at at time zone ${SA_ZONE_LITERAL})::date)
       from inserted i join seed_orders o on o.id = i.id join seed_lines l on l.n = o.n`,
      [recent, end.toISOString()],
    );
    // Paid orders have their invoices, numbered in the order they were paid after the shop's last
    // one, and the counter moves on past them (docs/decisions/009: the series stays gapless).
    await client.query(
      `with paid as (
         select id, row_number() over (order by paid_at, id)::int as k from orders
         where id in (select id from seed_orders) and paid_at is not null and invoice_number is null
       ), counter as (
         insert into document_counters (series, last) values ('invoice', (select count(*) from paid))
         on conflict (series) do update set last = document_counters.last + (select count(*) from paid)
         returning last
       )
       update orders set invoice_number = counter.last - (select count(*) from paid)::int + paid.k
       from paid, counter where orders.id = paid.id`,
    );
    const { rows } = await client.query<{ n: number }>(
      "select count(distinct order_id)::int as n from order_items where order_id in (select id from seed_orders)",
    );
    await client.query("commit");
    await client.query("analyze orders; analyze order_items; analyze users");
    return { orders: rows[0]?.n ?? 0, lines: rowCount ?? 0, customers };
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  }
}

const USAGE = `Usage: npm run seed:orders -- --orders <count> [--seed <number>] [--end <ISO date-time>]
  Adds <count> orders (default 1000) over the two years before --end (default now), with their
  customers, to DATABASE_URL or the embedded PostgreSQL in DATA_DIR. The same --seed gives the same data.`;

function parse(argv: string[]): SeedOrdersOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      orders: { type: "string", default: "1000" },
      seed: { type: "string", default: "1" },
      end: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) throw new ConfigError(USAGE);
  const orders = Number(values.orders);
  const seed = Number(values.seed);
  const end = values.end ? new Date(values.end) : new Date();
  if (!Number.isInteger(orders) || orders < 1 || orders > 5_000_000)
    throw new ConfigError(`--orders must be a whole number from 1 to 5,000,000\n\n${USAGE}`);
  if (!Number.isInteger(seed) || seed < 0) throw new ConfigError(`--seed must be a whole number\n\n${USAGE}`);
  if (Number.isNaN(end.getTime())) throw new ConfigError(`--end must be a date\n\n${USAGE}`);
  return { orders, seed, end };
}

async function main() {
  const options = parse(process.argv.slice(2));
  loadEnvFile();
  const database = await openDatabase(loadConfig(), {
    seed: seedCatalog,
    log: (line) => console.error(`[db] ${line}`),
  });
  const started = performance.now();
  // Its own connection: the pool's statement timeout is for requests, not for a bulk load.
  const client = new pg.Client({ connectionString: database.databaseUrl });
  await client.connect();
  try {
    const added = await seedOrders(client, options);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Seed ${options.seed ?? 1}: its ${added.orders} orders (for up to ${added.customers} customers) are in the database; ${added.lines} order lines added now, in ${seconds} s.`,
    );
  } finally {
    await client.end();
    await database.close();
  }
}

if (isEntryPoint(import.meta.url)) {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof NoClusterError)
      console.error(error.message);
    else console.error("Could not seed the orders:", error instanceof Error ? errWithoutValues(error) : error);
    process.exit(1);
  });
}
