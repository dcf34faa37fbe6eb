import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useMemo, useRef } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { type Product, type ProductInput, type ProductValues, productInput } from "../../../domain/schemas/catalog";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { useAdminCategories } from "./api/get-categories";
import { useSaveProduct } from "./api/save-product";
import { describedBy, Field, SwitchRow, sentence } from "./form-fields";
import { ImagePreview } from "./image-preview";
import { firstMessage, formDefaults, sizesOf } from "./product-form-values";
import { inputClass } from "./ui";

interface ProductFormDialogProps {
  /** The product to edit, or null to create one. */
  product: Product | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function ProductFormDialog({ product, open, onOpenChange }: ProductFormDialogProps) {
  return (
    <Dialog
      size="lg"
      open={open}
      onOpenChange={onOpenChange}
      title={product ? "Edit Product" : "Add Product"}
      description="Shoppers see changes on their next visit to the shop."
    >
      <ProductForm key={product?.id ?? "new"} product={product} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function ProductForm({ product, onDone }: { product: Product | null; onDone: () => void }) {
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
  const outOfStock = useWatch({ control, name: "outOfStock" });
  const image = useWatch({ control, name: "image" });

  // Per-size settings follow the size list; a size removed and typed again gets its settings back.
  const remembered = useRef({
    images: { ...product?.sizeImages } as Record<string, string>,
    outOfStock: { ...product?.sizeOutOfStock } as Record<string, boolean>,
  });
  const sizesKey = sizes.join("\u0000");
  useEffect(() => {
    const list = sizesKey ? sizesKey.split("\u0000") : [];
    const images = getValues("sizeImages") ?? {};
    const stock = getValues("sizeOutOfStock") ?? {};
    Object.assign(remembered.current.images, images);
    Object.assign(remembered.current.outOfStock, stock);
    setValue("sizeImages", Object.fromEntries(list.map((size) => [size, remembered.current.images[size] ?? ""])));
    setValue(
      "sizeOutOfStock",
      Object.fromEntries(list.map((size) => [size, remembered.current.outOfStock[size] ?? false])),
    );
  }, [sizesKey, getValues, setValue]);

  const submit = handleSubmit((values) => save.mutate(values, { onSuccess: onDone }));
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
          <select
            className="select-native aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-600"
            {...field("category")}
            {...register("category")}
          >
            <option value="">Choose a category</option>
            {categories.data?.map((category) => (
              <option key={category.id} value={category.name}>
                {category.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="admin-product-price" label="Price (R, VAT included)" error={error("price")}>
          <input
            className={`${inputClass} tabular`}
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0.01"
            {...field("price")}
            {...register("price")}
          />
        </Field>
      </div>

      <Field
        id="admin-product-image"
        label="Image URL"
        hint="A web address (https://...) or a path on this shop (/images/...)."
        error={error("image")}
      >
        <div className="flex items-center gap-3">
          <input className={inputClass} type="text" inputMode="url" {...field("image", true)} {...register("image")} />
          <ImagePreview url={image} />
        </div>
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

      {sizes.length > 0 && (
        <fieldset className="grid gap-3 rounded-xl border border-stone-200 p-3">
          <legend className="px-1 text-sm font-semibold text-stone-800">Per-size image and stock</legend>
          {error("sizeImages") && (
            <p className="text-sm font-medium text-red-700">{sentence(error("sizeImages") ?? "")}</p>
          )}
          <Controller
            control={control}
            name="sizeImages"
            render={({ field: images }) => (
              <Controller
                control={control}
                name="sizeOutOfStock"
                render={({ field: stock }) => (
                  <ul className="grid gap-3">
                    {sizes.map((size, index) => (
                      <li key={size} className="grid gap-2 border-b border-stone-100 pb-3 last:border-0 last:pb-0">
                        <p className="text-sm font-semibold text-stone-900">{size}</p>
                        <div className="grid items-center gap-2 sm:grid-cols-[minmax(0,1fr)_13rem]">
                          <div className="grid gap-1">
                            <label htmlFor={`size-image-${index}`} className="text-xs text-stone-700">
                              Image URL for {size} (optional)
                            </label>
                            <input
                              id={`size-image-${index}`}
                              className={inputClass}
                              type="text"
                              inputMode="url"
                              value={images.value?.[size] ?? ""}
                              onChange={(event) => {
                                remembered.current.images[size] = event.target.value;
                                images.onChange({ ...images.value, [size]: event.target.value });
                              }}
                            />
                          </div>
                          <SwitchRow
                            id={`size-stock-${index}`}
                            label={`${size} out of stock`}
                            checked={Boolean(stock.value?.[size])}
                            onCheckedChange={(checked) => {
                              remembered.current.outOfStock[size] = checked;
                              stock.onChange({ ...stock.value, [size]: checked });
                            }}
                          />
                        </div>
                      </li>
                    ))}
                  </ul>
                )}
              />
            )}
          />
        </fieldset>
      )}

      <div className="grid gap-2">
        <Controller
          control={control}
          name="outOfStock"
          render={({ field: stock }) => (
            <SwitchRow
              id="admin-product-out-of-stock"
              label="Product out of stock"
              checked={Boolean(stock.value)}
              onCheckedChange={stock.onChange}
            />
          )}
        />
        {outOfStock && (
          <p role="status" className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
            <strong>Out of stock.</strong> Shoppers can see this product but cannot order it in any size.
          </p>
        )}
      </div>

      <Field
        id="admin-product-promoText"
        label="Promo text (optional)"
        hint="Shown in a red block next to the price, for example: Save R50 this month"
        error={error("promoText")}
      >
        <input className={inputClass} autoComplete="off" {...field("promoText", true)} {...register("promoText")} />
      </Field>

      <div className="sticky bottom-0 -mx-5 -mb-5 flex flex-wrap justify-end gap-2 border-t border-stone-200 bg-white px-5 py-3 sm:-mx-6 sm:px-6">
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
