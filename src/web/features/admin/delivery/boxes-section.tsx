import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { type DeliveryBox, type DeliveryBoxInput, deliveryBoxInput } from "#domain/schemas/delivery-admin.js";
import { Button } from "#web/components/ui/button.js";
import { Dialog } from "#web/components/ui/dialog.js";
import { errorMessage } from "#web/lib/api.js";
import { describedBy, Field, inputClass, LoadError, LoadingRows, Panel, SectionHeader, sentence } from "../shared";
import { useDeleteDeliveryBox, useDeliveryBoxes, useSaveDeliveryBox } from "./api/boxes";

const kg = (grams: number) => `${(grams / 1000).toLocaleString("en-ZA", { maximumFractionDigits: 2 })} kg`;

/** "400 × 300 × 200 mm inside, up to 5 kg". */
export const boxMeasures = (box: DeliveryBox) =>
  `${box.lengthMm} × ${box.widthMm} × ${box.heightMm} mm inside, up to ${kg(box.maxWeightGrams)}`;

/** The owner's box sizes: an order is packed into the fewest of them, which decide the rate and whether a locker fits. */
export function BoxesSection() {
  const boxes = useDeliveryBoxes();
  const remove = useDeleteDeliveryBox();
  const [editing, setEditing] = useState<DeliveryBox | null>(null);
  const [open, setOpen] = useState(false);
  const openForm = (box: DeliveryBox | null) => {
    setEditing(box);
    setOpen(true);
  };

  return (
    <section aria-labelledby="boxes-heading">
      <SectionHeader
        id="boxes-heading"
        title="Boxes"
        description="The boxes you pack orders in. Each order goes into the fewest of them; they decide the courier's rate and whether a locker fits."
        action={<Button onClick={() => openForm(null)}>Add Box</Button>}
      />
      {boxes.isPending ? (
        <LoadingRows label="Loading the boxes" />
      ) : boxes.isError ? (
        <LoadError what="the boxes" onRetry={() => boxes.refetch()} />
      ) : (
        <>
          {boxes.data.usingDefaults && (
            <p className="mb-3 text-sm text-stone-600">
              These are the standard sizes until you change one: your first change keeps the others.
            </p>
          )}
          <Panel>
            <ul className="divide-y divide-stone-100">
              {boxes.data.boxes.map((box) => (
                <li key={box.code} className="flex flex-wrap items-center gap-x-4 gap-y-2 p-3">
                  <div className="min-w-0 flex-1 basis-56">
                    <p className="font-semibold text-stone-900">
                      {box.name} <span className="font-normal text-stone-600">({box.code})</span>
                    </p>
                    <p className="text-sm text-stone-700 tabular">{boxMeasures(box)}</p>
                  </div>
                  <div className="flex gap-2">
                    <Button variant="outline" aria-label={`Edit ${box.name}`} onClick={() => openForm(box)}>
                      Edit
                    </Button>
                    <Button
                      variant="danger-outline"
                      aria-label={`Remove ${box.name}`}
                      disabled={remove.isPending && remove.variables === box.code}
                      onClick={() => {
                        if (window.confirm(`Remove ${box.name}? Orders are no longer packed into it.`)) {
                          remove.mutate(box.code);
                        }
                      }}
                    >
                      Remove
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          </Panel>
        </>
      )}
      <Dialog open={open} onOpenChange={setOpen} title={editing ? "Edit Box" : "Add Box"}>
        <BoxForm key={editing?.code ?? "new"} box={editing} onDone={() => setOpen(false)} />
      </Dialog>
    </section>
  );
}

const MEASURES = [
  { name: "lengthMm", label: "Length inside (mm)" },
  { name: "widthMm", label: "Width inside (mm)" },
  { name: "heightMm", label: "Height inside (mm)" },
  { name: "maxWeightGrams", label: "Most weight when full (g)" },
] as const;

function BoxForm({ box, onDone }: { box: DeliveryBox | null; onDone: () => void }) {
  const save = useSaveDeliveryBox(box?.code ?? null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<DeliveryBoxInput>({
    resolver: zodResolver(deliveryBoxInput),
    defaultValues: box ?? { code: "", name: "" },
  });
  const failed = save.isError ? errorMessage(save.error, "The box could not be saved") : null;
  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={handleSubmit((values) => save.mutate(values, { onSuccess: onDone }))}
    >
      <div className="grid gap-4 sm:grid-cols-[8rem_minmax(0,1fr)]">
        <Field id="box-code" label="Code" hint="A short name: S, M, XL." error={errors.code?.message}>
          <input
            className={inputClass}
            autoComplete="off"
            {...describedBy("box-code", { hasHint: true, error: errors.code?.message })}
            {...register("code")}
          />
        </Field>
        <Field id="box-name" label="Name" error={errors.name?.message}>
          <input
            className={inputClass}
            autoComplete="off"
            {...describedBy("box-name", { error: errors.name?.message })}
            {...register("name")}
          />
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {MEASURES.map(({ name, label }) => (
          <Field key={name} id={`box-${name}`} label={label} error={errors[name]?.message}>
            <input
              className={`${inputClass} tabular`}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              {...describedBy(`box-${name}`, { error: errors[name]?.message })}
              {...register(name, { valueAsNumber: true })}
            />
          </Field>
        ))}
      </div>
      {failed && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {sentence(failed)}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2 border-t border-stone-200 pt-3">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : box ? "Save Changes" : "Add Box"}
        </Button>
      </div>
    </form>
  );
}
