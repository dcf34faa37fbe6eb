import { type FormEvent, useId, useState } from "react";
import { formatRandText } from "#domain/money.js";
import { PROMO_KIND_LABELS, PROMO_KINDS, type PromoKind } from "#domain/promo.js";
import { saDay } from "#domain/sa-calendar.js";
import { formatShortDate } from "#domain/sa-format.js";
import type { AdminPromoCode, PromoCodeInput } from "#domain/schemas/promo.js";
import { Button } from "#web/components/ui/button.js";
import { Dialog } from "#web/components/ui/dialog.js";
import { EmptyState, Field, inputClass, LoadError, LoadingRows, Panel, SectionHeader } from "../shared";
import { useAdminCategories } from "./api/get-categories";
import { useAdminProducts } from "./api/get-products";
import { usePromoCodes, useSavePromoCode } from "./api/promo-codes";

/** A South African day (YYYY-MM-DD) as the moment it starts there (UTC+2, no daylight saving). */
const dayStart = (day: string) => `${day}T00:00:00+02:00`;
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
/** The South African day of a moment; for an end (exclusive), the day before it: the last day the code works. */
const dayOf = (iso: string, end = false) => saDay(new Date(Date.parse(iso) - (end ? 1 : 0)));
const dayText = (day: string) => formatShortDate(`${day}T12:00:00+02:00`);

function when(code: AdminPromoCode): string {
  const from = code.startsAt ? dayText(dayOf(code.startsAt)) : null;
  const to = code.endsAt ? dayText(dayOf(code.endsAt, true)) : null;
  if (from && to) return `${from} to ${to}`;
  if (from) return `From ${from}`;
  if (to) return `Until ${to}`;
  return "No end date";
}

function status(code: AdminPromoCode, now = Date.now()): { label: string; tone: string } {
  if (!code.active) return { label: "Off", tone: "bg-stone-100 text-stone-700" };
  if (code.endsAt && Date.parse(code.endsAt) <= now) return { label: "Expired", tone: "bg-stone-100 text-stone-700" };
  if (code.startsAt && Date.parse(code.startsAt) > now) return { label: "Scheduled", tone: "bg-sky-50 text-sky-800" };
  if (code.maxUses !== null && code.uses + code.held >= code.maxUses) {
    return { label: "Used up", tone: "bg-amber-50 text-amber-900" };
  }
  return { label: "Active", tone: "bg-emerald-50 text-emerald-800" };
}

/** The admin's Promotions tab: every code, how often it was used and what it gave away; new and edit. */
export default function PromotionsTab() {
  const codes = usePromoCodes();
  const [editing, setEditing] = useState<AdminPromoCode | "new" | null>(null);
  return (
    <section aria-labelledby="promotions-heading">
      <SectionHeader
        id="promotions-heading"
        title="Promotions"
        description="Promo codes shoppers type at checkout. A use counts when the order is paid; unpaid orders hold theirs until they are paid or expire."
        action={<Button onClick={() => setEditing("new")}>New promo code</Button>}
      />
      {codes.isPending ? (
        <LoadingRows label="Loading promo codes" />
      ) : codes.isError ? (
        <LoadError what="the promo codes" onRetry={() => void codes.refetch()} />
      ) : codes.data.length === 0 ? (
        <EmptyState title="No promo codes yet">Make one with New promo code.</EmptyState>
      ) : (
        <ul className="grid gap-3">
          {codes.data.map((code) => {
            const state = status(code);
            return (
              <li key={code.id}>
                <Panel className="grid gap-3 p-4 sm:grid-cols-[1fr_auto] sm:items-center">
                  <div className="min-w-0">
                    <div className="flex flex-wrap items-center gap-2">
                      <h3 className="font-mono text-base font-bold tracking-wide text-stone-900">{code.code}</h3>
                      <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${state.tone}`}>
                        {state.label}
                      </span>
                    </div>
                    <p className="mt-1 text-sm text-stone-700">
                      {code.description}
                      {code.minSpend ? ` on orders of ${formatRandText(code.minSpend)} or more` : ""}
                      {code.productIds.length + code.categoryIds.length > 0 ? ", selected products only" : ""}
                    </p>
                    <p className="mt-0.5 text-xs text-stone-600">
                      {when(code)}
                      {code.maxUses !== null ? ` · ${code.maxUses} uses in all` : ""}
                      {code.maxUsesPerCustomer !== null ? ` · ${code.maxUsesPerCustomer} per customer` : ""}
                    </p>
                  </div>
                  <div className="flex flex-wrap items-center gap-4 sm:justify-end">
                    <dl className="tabular flex gap-4 text-sm">
                      <div>
                        <dt className="text-xs text-stone-600">Used</dt>
                        <dd className="font-semibold text-stone-900">
                          {code.uses}
                          {code.held > 0 && <span className="font-normal text-stone-600"> (+{code.held} unpaid)</span>}
                        </dd>
                      </div>
                      <div>
                        <dt className="text-xs text-stone-600">Given away</dt>
                        <dd className="font-semibold text-stone-900">{formatRandText(code.givenAway)}</dd>
                      </div>
                    </dl>
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => setEditing(code)}
                      aria-label={`Edit ${code.code}`}
                    >
                      Edit
                    </Button>
                  </div>
                </Panel>
              </li>
            );
          })}
        </ul>
      )}
      {editing && <PromoCodeDialog code={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </section>
  );
}

function PromoCodeDialog({ code, onClose }: { code: AdminPromoCode | null; onClose: () => void }) {
  const id = useId();
  const save = useSavePromoCode(code?.id ?? null, onClose);
  const products = useAdminProducts();
  const categories = useAdminCategories();
  const [form, setForm] = useState({
    code: code?.code ?? "",
    kind: (code?.kind ?? "percent") as PromoKind,
    percent: code?.percent !== null && code?.percent !== undefined ? String(code.percent) : "",
    amount: code?.amount ?? "",
    minSpend: code?.minSpend ?? "",
    startDay: code?.startsAt ? dayOf(code.startsAt) : "",
    endDay: code?.endsAt ? dayOf(code.endsAt, true) : "",
    maxUses: code?.maxUses !== null && code?.maxUses !== undefined ? String(code.maxUses) : "",
    maxUsesPerCustomer:
      code?.maxUsesPerCustomer !== null && code?.maxUsesPerCustomer !== undefined
        ? String(code.maxUsesPerCustomer)
        : "",
    productIds: code?.productIds ?? [],
    categoryIds: code?.categoryIds ?? [],
    active: code?.active ?? true,
  });
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm({ ...form, [key]: value });
  const toggle = (key: "productIds" | "categoryIds", value: string) =>
    set(key, form[key].includes(value) ? form[key].filter((item) => item !== value) : [...form[key], value]);
  const whole = (text: string) => (text.trim() === "" ? null : Number(text));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: PromoCodeInput = {
      code: form.code,
      kind: form.kind,
      percent: form.kind === "percent" ? whole(form.percent) : null,
      amount: form.kind === "fixed" ? form.amount : null,
      minSpend: form.minSpend || null,
      startsAt: form.startDay ? dayStart(form.startDay) : null,
      endsAt: form.endDay ? dayStart(nextDay(form.endDay)) : null,
      maxUses: whole(form.maxUses),
      maxUsesPerCustomer: whole(form.maxUsesPerCustomer),
      productIds: form.productIds,
      categoryIds: form.categoryIds,
      active: form.active,
    };
    save.mutate(body);
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={code ? `Edit ${code.code}` : "New promo code"}
      description="Dates are South African days; the code works from the start of the first to the end of the last."
    >
      <form onSubmit={submit} className="grid gap-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={`${id}-code`} label="Code" hint="Letters, digits, - and _; shoppers may type it in any case.">
            <input
              id={`${id}-code`}
              className={`${inputClass} font-mono uppercase`}
              value={form.code}
              onChange={(event) => set("code", event.target.value)}
              required
              maxLength={32}
            />
          </Field>
          <Field id={`${id}-kind`} label="Gives">
            <select
              id={`${id}-kind`}
              className="select-native"
              value={form.kind}
              onChange={(event) => set("kind", event.target.value as PromoKind)}
            >
              {PROMO_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {PROMO_KIND_LABELS[kind]}
                </option>
              ))}
            </select>
          </Field>
          {form.kind === "percent" && (
            <Field id={`${id}-percent`} label="Percentage off">
              <input
                id={`${id}-percent`}
                className={inputClass}
                inputMode="numeric"
                value={form.percent}
                onChange={(event) => set("percent", event.target.value)}
                placeholder="10"
              />
            </Field>
          )}
          {form.kind === "fixed" && (
            <Field id={`${id}-amount`} label="Amount off (R)">
              <input
                id={`${id}-amount`}
                className={inputClass}
                inputMode="decimal"
                value={form.amount}
                onChange={(event) => set("amount", event.target.value)}
                placeholder="50.00"
              />
            </Field>
          )}
          <Field id={`${id}-min`} label="Minimum spend (R, optional)">
            <input
              id={`${id}-min`}
              className={inputClass}
              inputMode="decimal"
              value={form.minSpend}
              onChange={(event) => set("minSpend", event.target.value)}
            />
          </Field>
          <Field id={`${id}-start`} label="First day (optional)">
            <input
              id={`${id}-start`}
              type="date"
              className={inputClass}
              value={form.startDay}
              onChange={(event) => set("startDay", event.target.value)}
            />
          </Field>
          <Field id={`${id}-end`} label="Last day (optional)">
            <input
              id={`${id}-end`}
              type="date"
              className={inputClass}
              value={form.endDay}
              onChange={(event) => set("endDay", event.target.value)}
            />
          </Field>
          <Field id={`${id}-uses`} label="Uses in all (optional)">
            <input
              id={`${id}-uses`}
              className={inputClass}
              inputMode="numeric"
              value={form.maxUses}
              onChange={(event) => set("maxUses", event.target.value)}
            />
          </Field>
          <Field id={`${id}-per`} label="Uses per customer (optional)">
            <input
              id={`${id}-per`}
              className={inputClass}
              inputMode="numeric"
              value={form.maxUsesPerCustomer}
              onChange={(event) => set("maxUsesPerCustomer", event.target.value)}
            />
          </Field>
        </div>
        <fieldset className="grid gap-2">
          <legend className="text-sm font-semibold text-stone-800">Applies to (none ticked: everything)</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            {(categories.data ?? []).map((category) => (
              <label key={category.id} className="flex min-h-11 items-center gap-2 text-sm capitalize">
                <input
                  type="checkbox"
                  className="size-4 accent-brand-700"
                  checked={form.categoryIds.includes(category.id)}
                  onChange={() => toggle("categoryIds", category.id)}
                />
                {category.name}
              </label>
            ))}
          </div>
          <details className="rounded-lg border border-stone-200 px-3 py-2">
            <summary className="cursor-pointer text-sm font-medium text-stone-800">
              Products ({form.productIds.length} chosen)
            </summary>
            <div className="mt-2 grid max-h-48 gap-1 overflow-y-auto">
              {(products.data ?? []).map((product) => (
                <label key={product.id} className="flex min-h-9 items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-brand-700"
                    checked={form.productIds.includes(product.id)}
                    onChange={() => toggle("productIds", product.id)}
                  />
                  {product.name}
                </label>
              ))}
            </div>
          </details>
        </fieldset>
        <label className="flex min-h-11 items-center gap-2 text-sm font-medium text-stone-800">
          <input
            type="checkbox"
            className="size-4 accent-brand-700"
            checked={form.active}
            onChange={(event) => set("active", event.target.checked)}
          />
          On (shoppers can use it)
        </label>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving..." : "Save"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
