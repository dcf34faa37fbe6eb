import { useState } from "react";
import { formatRandText } from "#domain/money.js";
import type { AdminProduct } from "#domain/schemas/catalog.js";
import { VAT_CLASS_LABELS } from "#domain/vat.js";
import { Button } from "#web/components/ui/button.js";
import { ProductImage } from "#web/components/ui/product-image.js";
import { EmptyState, inputClass, LoadError, LoadingRows, Panel, SectionHeader } from "../shared";
import { useDeleteProduct } from "./api/delete-product";
import { useAdminProducts } from "./api/get-products";
import { ProductFormDialog } from "./product-form-dialog";
import { SizeStockList } from "./size-stock-list";

export function ProductsTab() {
  const { data: products, isPending, isError, isFetching, refetch } = useAdminProducts();
  const remove = useDeleteProduct();
  const [editingId, setEditingId] = useState<string | null>(null);
  const [editing, setEditing] = useState<AdminProduct | null>(null);
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");

  const openForm = (product: AdminProduct | null) => {
    setEditingId(product?.id ?? null);
    setEditing(null);
    setOpen(true);
  };
  // The form starts from the product as the server answers now. Edit pressed while the list is
  // fetched again (the tab has just opened, a save has just landed) waits for that answer, so the
  // stock and the units held by unpaid orders are never those of an earlier visit to the tab.
  const waitingForProduct = open && editingId !== null && editing?.id !== editingId;
  if (waitingForProduct && !isFetching) {
    const fresh = products?.find((product) => product.id === editingId);
    if (fresh) setEditing(fresh);
    else {
      // Deleted meanwhile (by another admin): there is nothing left to edit.
      setEditingId(null);
      setOpen(false);
    }
  }
  const confirmDelete = (product: AdminProduct) => {
    if (window.confirm("Are you sure you want to delete this product?")) remove.mutate(product.id);
  };

  const needle = search.trim().toLowerCase();
  const shown = (products ?? []).filter(
    (product) => !needle || product.name.toLowerCase().includes(needle) || product.category.includes(needle),
  );

  return (
    <section aria-labelledby="products-heading">
      <SectionHeader
        id="products-heading"
        title="Products"
        description={
          products
            ? `${products.length} product(s) in the shop. Stock shows the units left to sell per size; units held by unpaid orders are counted out.`
            : undefined
        }
        action={<Button onClick={() => openForm(null)}>Add Product</Button>}
      />
      <div className="mb-3 max-w-sm">
        <label htmlFor="admin-product-search" className="sr-only">
          Search products
        </label>
        <input
          id="admin-product-search"
          type="search"
          placeholder="Search products by name or category"
          className={inputClass}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>

      {isPending ? (
        <LoadingRows label="Loading products" />
      ) : isError ? (
        <LoadError what="the products" onRetry={() => refetch()} />
      ) : shown.length === 0 ? (
        <EmptyState title={needle ? "No products match your search" : "No products yet"}>
          {needle ? "Try another name or category." : "Add the first product to open the shop."}
        </EmptyState>
      ) : (
        <Panel>
          <ul className="divide-y divide-stone-100">
            {shown.map((product) => (
              <li
                key={product.id}
                className="grid grid-cols-[3.5rem_minmax(0,1fr)] gap-x-3 gap-y-2 p-3 md:grid-cols-[3.5rem_minmax(0,1fr)_6.5rem_auto] md:items-center md:gap-x-4"
              >
                <ProductImage
                  src={product.image}
                  alt=""
                  width={56}
                  height={56}
                  sizes="56px"
                  className="size-14 rounded-lg border border-stone-200 bg-stone-50 object-contain"
                />
                <div className="min-w-0">
                  <p className="font-semibold text-stone-900">{product.name}</p>
                  <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-stone-600">
                    <span className="capitalize">{product.category}</span>
                    <span aria-hidden="true">·</span>
                    <span>
                      {product.sizes.length} {product.sizes.length === 1 ? "size" : "sizes"}
                    </span>
                    <span aria-hidden="true">·</span>
                    {product.vatClass === "zero" ? (
                      <span className="rounded-full bg-teal-50 px-2 py-0.5 text-xs font-semibold text-teal-800 ring-1 ring-teal-200">
                        {VAT_CLASS_LABELS.zero}
                      </span>
                    ) : (
                      <span>{VAT_CLASS_LABELS.standard}</span>
                    )}
                    {product.outOfStock && (
                      <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">
                        Sold out
                      </span>
                    )}
                  </p>
                  <div className="mt-2">
                    <SizeStockList product={product} />
                  </div>
                </div>
                <div className="col-start-2 flex items-center justify-between gap-3 md:contents">
                  <p className="tabular font-semibold text-stone-900 md:text-right">{formatRandText(product.price)}</p>
                  <div className="flex gap-2">
                    <Button variant="outline" aria-label={`Edit ${product.name}`} onClick={() => openForm(product)}>
                      Edit
                    </Button>
                    <Button
                      variant="danger-outline"
                      aria-label={`Delete ${product.name}`}
                      onClick={() => confirmDelete(product)}
                      disabled={remove.isPending && remove.variables === product.id}
                    >
                      Delete
                    </Button>
                  </div>
                </div>
              </li>
            ))}
          </ul>
        </Panel>
      )}

      <ProductFormDialog
        product={waitingForProduct ? null : editing}
        loading={waitingForProduct}
        open={open}
        onOpenChange={setOpen}
      />
    </section>
  );
}
