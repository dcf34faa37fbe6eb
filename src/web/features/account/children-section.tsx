import { type FormEvent, useState } from "react";
import { CHILD_NAME_MAX, MAX_CHILD_PROFILES } from "#domain/limits.js";
import type { ChildProfile } from "#domain/schemas/size-fit.js";
import { gramsAsKg } from "#domain/size-fit.js";
import { Button } from "#web/components/ui/button.js";
import { TextField } from "#web/components/ui/text-field.js";
import { errorMessage } from "#web/lib/api.js";
import { useChildren, useSaveChild } from "./api/children";

interface ChildText {
  name: string;
  birthMonth: string;
  weightKg: string;
  weighedOn: string;
}

const EMPTY: ChildText = { name: "", birthMonth: "", weightKg: "", weighedOn: "" };

const textOf = (child: ChildProfile): ChildText => ({
  name: child.name,
  birthMonth: child.birthMonth ?? "",
  weightKg: child.weightGrams === null ? "" : gramsAsKg(child.weightGrams),
  weighedOn: child.weighedOn ?? "",
});

/**
 * The profile's "Your children" card (issue 42): a first name or nickname, the birth month and the
 * last weight with its day, for the size finder. All optional but the name; kept private.
 */
export function ChildrenSection({ userId }: { userId: string }) {
  const children = useChildren(userId);
  const save = useSaveChild(userId);
  const [editing, setEditing] = useState<{ id: string | null; text: ChildText } | null>(null);
  const list = children.data ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    const { text } = editing;
    save.mutate(
      {
        id: editing.id,
        values: {
          name: text.name,
          birthMonth: text.birthMonth || null,
          weightKg: text.weightKg.trim() === "" ? null : Number(text.weightKg.replace(",", ".")),
          weighedOn: text.weighedOn || null,
        },
      },
      { onSuccess: () => setEditing(null) },
    );
  };
  const set = (field: keyof ChildText) => (event: { target: { value: string } }) =>
    setEditing((current) => current && { ...current, text: { ...current.text, [field]: event.target.value } });

  return (
    <section
      aria-labelledby="children-heading"
      className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id="children-heading" className="text-lg font-semibold text-stone-950">
        Your children
      </h2>
      <p className="mt-1 text-sm text-stone-600">
        Optional. The size finder uses a child's last weight to choose nappy sizes, and tells you when it's time to move
        up a size. Only you see these details; they go with your data download and are deleted with your account.
      </p>
      {children.isError && (
        <p className="mt-3 text-sm text-red-800">Could not load your children. Reload the page to try again.</p>
      )}
      {list.length > 0 && (
        <ul aria-label="Your children" className="mt-4 divide-y divide-stone-100">
          {list.map((child) => (
            <li key={child.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
              <span>
                <span className="font-semibold text-stone-950">{child.name}</span>
                {child.weightGrams !== null && (
                  <span className="text-stone-600">
                    {" "}
                    · {gramsAsKg(child.weightGrams)} kg{child.weighedOn ? ` on ${child.weighedOn}` : ""}
                  </span>
                )}
              </span>
              <span className="flex gap-2">
                <Button size="sm" variant="outline" onClick={() => setEditing({ id: child.id, text: textOf(child) })}>
                  Edit<span className="sr-only"> {child.name}</span>
                </Button>
                <Button
                  size="sm"
                  variant="danger-outline"
                  disabled={save.isPending}
                  onClick={() => {
                    if (window.confirm(`Remove ${child.name}?`)) save.mutate({ id: child.id, values: null });
                  }}
                >
                  Remove<span className="sr-only"> {child.name}</span>
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {editing ? (
        <form onSubmit={submit} noValidate className="mt-4 grid gap-3 sm:grid-cols-2">
          <TextField
            label="First name or nickname"
            required
            maxLength={CHILD_NAME_MAX}
            value={editing.text.name}
            onChange={set("name")}
          />
          <TextField
            label="Birth month (optional)"
            type="month"
            value={editing.text.birthMonth}
            onChange={set("birthMonth")}
          />
          <TextField
            label="Last weight in kg (optional)"
            inputMode="decimal"
            value={editing.text.weightKg}
            onChange={set("weightKg")}
          />
          <TextField
            label="Weighed on (optional)"
            type="date"
            value={editing.text.weighedOn}
            onChange={set("weighedOn")}
          />
          {save.error && (
            <p role="alert" className="text-sm text-red-800 sm:col-span-2">
              {errorMessage(save.error, "Could not save. Please try again.")}
            </p>
          )}
          <div className="flex gap-2 sm:col-span-2">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? "Saving..." : "Save child"}
            </Button>
            <Button variant="outline" onClick={() => setEditing(null)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        list.length < MAX_CHILD_PROFILES && (
          <Button variant="secondary" className="mt-4" onClick={() => setEditing({ id: null, text: EMPTY })}>
            Add a child
          </Button>
        )
      )}
    </section>
  );
}
