import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useMemo, useRef } from "react";
import { type FieldErrors, useForm, useWatch } from "react-hook-form";
import { type AdminProduct, type ProductInput, type ProductValues, productInput } from "#domain/schemas/catalog.js";
import { VAT_CLASS_HINT, VAT_CLASS_LABELS, VAT_CLASSES } from "#domain/vat.js";
import { vatWording } from "#domain/vat-wording.js";
import { Button } from "#web/components/ui/button.js";
import { Dialog } from "#web/components/ui/dialog.js";
import { publicConfig } from "#web/lib/public-config.js";
import { describedBy, Field, inputClass, LoadingRows } from "../shared";
import { AbsorbencyField } from "./absorbency-field";
import { useAdminCategories } from "./api/get-categories";
import { useSaveProduct } from "./api/save-product";
import { ImagePreview } from "./image-preview";
import { MultibuyFieldset } from "./multibuy-fieldset";
import { PhotoUpload } from "./photo-upload";
import {
  firstMessage,
  formDefaults,
  presentForSizes,
  sizesOf,
  stockHeldMessage,
  valuesForSizes,
} from "./product-form-values";
import { SizeFitFields } from "./size-fit-fields";
import { SizeParcelFields } from "./size-parcel-fields";
import { type RememberedSizeSettings, SizeSettings, stockFieldId } from "./size-settings";

interface ProductFormDialogProps {
  /** The product to edit, or null to create one. */
  product: AdminProduct | null;
  /** Editing, with the product's current state still on its way: the dialog says so instead of a form. */
  loading?: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function ProductFormDialog({ product, loading = false, open, onOpenChange }: ProductFormDialogProps) {
  return (
    <Dialog
      size="lg"
      open={open}
      onOpenChange={onOpenChange}
      title={product || loading ? "Edit Product" : "Add Product"}
      description="Shoppers see changes on their next visit to the shop."
    >
      {loading ? (
        <LoadingRows label="Loading the product's stock" rows={2} />
      ) : (
        <ProductForm key={product?.id ?? "new"} product={product} onDone={() => onOpenChange(false)} />
      )}
    </Dialog>
  );
}

function ProductForm({ product, onDone }: { product: AdminProduct | null; onDone: () => void }) {
  const categories = useAdminCategories();
  const save = useSaveProduct(product?.id ?? null);
  const {
    register,
    control,
    handleSubmit,
    getValues,
    setValue,
    formState: { errors },
  } = useForm<ProductInput, unknown, ProductValues>({
    resolver: zodResolver(productInput),
    defaultValues: formDefaults(product),
  });

  const sizesText = useWatch({ control, name: "sizes" });
  const sizes = useMemo(() => sizesOf(sizesText), [sizesText]);
  const image = useWatch({ control, name: "image" });

  // Per-size settings follow the size list; a size removed and typed again gets its settings back.
  const remembered = useRef<RememberedSizeSettings>({
    images: { ...product?.sizeImages },
    stock: { ...product?.stock },
    prices: {},
    packs: {},
  });
  const sizesKey = sizes.join("\u0000");
  useEffect(() => {
    const list = sizesKey ? sizesKey.split("\u0000") : [];
    Object.assign(remembered.current.images, getValues("sizeImages"));
    Object.assign(remembered.current.stock, getValues("stock"));
    setValue("sizeImages", valuesForSizes(list, remembered.current.images, ""));
    setValue("stock", valuesForSizes(list, remembered.current.stock, 0));
    const { prices, packs } = remembered.current;
    Object.assign(prices, getValues("sizePrices"));
    Object.assign(packs, getValues("sizePackCounts"));
    setValue("sizePrices", presentForSizes(list, prices));
    setValue("sizePackCounts", presentForSizes(list, packs));
    setValue("sizeFits", presentForSizes(list, getValues("sizeFits") ?? {}));
    setValue("sizeParcels", presentForSizes(list, getValues("sizeParcels") ?? {}));
  }, [sizesKey, getValues, setValue]);
  const stockHeld = stockHeldMessage(save.error);

  // A refusal from the last save goes once the form is sent again. The stock fields are not
  // registered inputs, so react-hook-form cannot focus one in error: the first is focused here.
  const onInvalid = (invalid: FieldErrors<ProductInput>) => {
    save.reset();
    if (Object.keys(invalid).some((name) => !["stock", "sizePrices", "sizePackCounts"].includes(name))) return;
    // The first size in error, its price, pack or stock field, in the order they are laid out.
    for (const [index, size] of sizes.entries()) {
      const id = invalid.sizePrices?.[size]
        ? `size-price-${index}`
        : invalid.sizePackCounts?.[size]
          ? `size-pack-${index}`
          : invalid.stock?.[size]
            ? stockFieldId(index)
            : null;
      if (id) return document.getElementById(id)?.focus();
    }
  };
  const submit = handleSubmit((values) => save.mutate(values, { onSuccess: onDone }), onInvalid);
  const error = (name: keyof ProductInput) => firstMessage(errors[name]);
  const field = (id: keyof ProductInput, hasHint = false) =>
    describedBy(`admin-product-${id}`, { hasHint, error: error(id) });

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <Field id="admin-product-name" label="Name" error={error("name")}>
        <input className={inputClass} autoComplete="off" {...field("name")} {...register("name")} />
      </Field>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="admin-product-category" label="Category" error={error("category")}>
          {/* The select is registered once its options exist: a value set before them would show as unchosen. */}
          {categories.data ? (
            <select
              className="select-native aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-600"
              {...field("category")}
              {...register("category")}
            >
              <option value="">Choose a category</option>
              {categories.data.map((category) => (
                <option key={category.id} value={category.name}>
                  {category.name}
                </option>
              ))}
            </select>
          ) : (
            <select id="admin-product-category" className="select-native" disabled>
              <option>{categories.isError ? "Could not load the categories" : "Loading categories..."}</option>
            </select>
          )}
        </Field>
        <Field
          id="admin-product-price"
          label={vatWording(publicConfig.vatRegistered).priceLabel}
          hint="Sizes without their own price below cost this."
          error={error("price")}
        >
          <input
            className={`${inputClass} tabular`}
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0.01"
            {...field("price", true)}
            {...register("price")}
          />
        </Field>
      </div>

      <Field id="admin-product-vatClass" label="VAT" hint={VAT_CLASS_HINT} error={error("vatClass")}>
        <select className="select-native sm:max-w-xs" {...field("vatClass", true)} {...register("vatClass")}>
          {VAT_CLASSES.map((vatClass) => (
            <option key={vatClass} value={vatClass}>
              {VAT_CLASS_LABELS[vatClass]}
            </option>
          ))}
        </select>
      </Field>

      <Field
        id="admin-product-image"
        label="Image URL"
        hint="Upload a photo, or type a web address (https://...) or a path on this shop (/images/...)."
        error={error("image")}
      >
        <div className="flex items-center gap-3">
          <input className={inputClass} type="text" inputMode="url" {...field("image", true)} {...register("image")} />
          <ImagePreview url={image} />
        </div>
        <PhotoUpload
          label="product photo"
          onUploaded={(url) => setValue("image", url, { shouldDirty: true, shouldValidate: true })}
        />
      </Field>

      <Field id="admin-product-description" label="Description" error={error("description")}>
        <textarea
          className={`${inputClass} min-h-24 py-2`}
          rows={3}
          {...field("description")}
          {...register("description")}
        />
      </Field>

      <Field
        id="admin-product-sizes"
        label="Sizes"
        hint="Separate sizes with commas, for example: Size 1 (2-5kg), Size 2 (3-6kg)"
        error={error("sizes")}
      >
        <input className={inputClass} autoComplete="off" {...field("sizes", true)} {...register("sizes")} />
      </Field>

      <Field
        id="admin-product-packUnit"
        label="Unit in a pack (optional)"
        hint="One of them, for the price per unit: nappy, pad, liner, wipe, pair, tampon"
        error={error("packUnit")}
      >
        <input
          className={`${inputClass} sm:max-w-xs`}
          autoComplete="off"
          {...field("packUnit", true)}
          {...register("packUnit")}
        />
      </Field>

      {sizes.length > 0 && (
        <SizeSettings
          control={control}
          errors={errors}
          sizes={sizes}
          held={product?.held ?? {}}
          remembered={remembered}
        />
      )}

      <MultibuyFieldset control={control} register={register} errors={errors} />
      {/* The size guide (issue 42): its own fieldset. */}
      {sizes.length > 0 && <SizeFitFields key={sizesKey} control={control} sizes={sizes} />}
      {sizes.length > 0 && <SizeParcelFields key={sizesKey} control={control} sizes={sizes} />}

      <Field
        id="admin-product-maxPerOrder"
        label="Most packs per order"
        hint="Of each size, in one order. 20 suits most products; raise it for bulk items."
        error={error("maxPerOrder")}
      >
        <input
          className={`${inputClass} tabular max-w-32`}
          type="number"
          inputMode="numeric"
          step="1"
          min="1"
          max="999"
          {...field("maxPerOrder", true)}
          {...register("maxPerOrder")}
        />
      </Field>

      <AbsorbencyField register={register} error={error("absorbency")} />

      <Field
        id="admin-product-planSavingPercent"
        label="Nappy plan saving, % (optional)"
        hint="Off each pack in a nappy plan. Leave empty for the shop's 5%; 0 for no saving."
        error={error("planSavingPercent")}
      >
        <input
          className={`${inputClass} tabular max-w-32`}
          type="text"
          inputMode="decimal"
          placeholder="5"
          {...field("planSavingPercent", true)}
          {...register("planSavingPercent")}
        />
      </Field>

      <Field
        id="admin-product-promoText"
        label="Promo text (optional)"
        hint="Shown in a red block next to the price, for example: Save R50 this month"
        error={error("promoText")}
      >
        <input className={inputClass} autoComplete="off" {...field("promoText", true)} {...register("promoText")} />
      </Field>

      {/* The refusal sits in the sticky footer, beside Save, wherever the form is scrolled to. */}
      <div className="sticky bottom-0 -mx-5 -mb-5 flex flex-wrap justify-end gap-2 border-t border-stone-200 bg-white px-5 py-3 sm:-mx-6 sm:px-6">
        {stockHeld && (
          <p role="alert" className="w-full rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
            <strong>Not saved.</strong> {stockHeld}
          </p>
        )}
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : product ? "Save Changes" : "Create Product"}
        </Button>
      </div>
    </form>
  );
}
