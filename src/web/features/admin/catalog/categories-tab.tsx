import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { type CategoryInput, categoryInput } from "#domain/schemas/catalog.js";
import { Button } from "#web/components/ui/button.js";
import { Dialog } from "#web/components/ui/dialog.js";
import { describedBy, EmptyState, Field, inputClass, LoadError, LoadingRows, Panel, SectionHeader } from "../shared";
import { useDeleteCategory } from "./api/delete-category";
import { type AdminCategory, useAdminCategories } from "./api/get-categories";
import { useSaveCategory } from "./api/save-category";

export function CategoriesTab() {
  const { data: categories, isPending, isError, refetch } = useAdminCategories();
  const remove = useDeleteCategory();
  const [editing, setEditing] = useState<AdminCategory | null>(null);
  const [open, setOpen] = useState(false);

  const openForm = (category: AdminCategory | null) => {
    setEditing(category);
    setOpen(true);
  };
  const confirmDelete = (category: AdminCategory) => {
    if (window.confirm("Are you sure you want to delete this category?")) remove.mutate(category.id);
  };

  return (
    <section aria-labelledby="categories-heading">
      <SectionHeader
        id="categories-heading"
        title="Categories"
        description="Each product belongs to one category; shoppers filter the shop by them."
        action={<Button onClick={() => openForm(null)}>Add Category</Button>}
      />
      {isPending ? (
        <LoadingRows label="Loading categories" />
      ) : isError ? (
        <LoadError what="the categories" onRetry={() => refetch()} />
      ) : categories.length === 0 ? (
        <EmptyState title="No categories yet">Add a category before adding products.</EmptyState>
      ) : (
        <Panel>
          <ul className="divide-y divide-stone-100">
            {categories.map((category) => (
              <li key={category.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 p-3">
                <div className="min-w-0 flex-1 basis-48">
                  <p className="font-semibold text-stone-900 capitalize">{category.name}</p>
                  {category.description && <p className="text-sm text-stone-600">{category.description}</p>}
                </div>
                <p className="text-sm whitespace-nowrap text-stone-700">
                  {category.productCount} {category.productCount === 1 ? "product" : "products"}
                </p>
                <div className="flex gap-2">
                  <Button variant="outline" aria-label={`Edit ${category.name}`} onClick={() => openForm(category)}>
                    Edit
                  </Button>
                  <Button
                    variant="danger-outline"
                    aria-label={`Delete ${category.name}`}
                    onClick={() => confirmDelete(category)}
                    disabled={remove.isPending && remove.variables === category.id}
                  >
                    Delete
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </Panel>
      )}

      <Dialog open={open} onOpenChange={setOpen} title={editing ? "Edit Category" : "Add Category"}>
        <CategoryForm key={editing?.id ?? "new"} category={editing} onDone={() => setOpen(false)} />
      </Dialog>
    </section>
  );
}

function CategoryForm({ category, onDone }: { category: AdminCategory | null; onDone: () => void }) {
  const save = useSaveCategory(category?.id ?? null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<CategoryInput>({
    resolver: zodResolver(categoryInput),
    defaultValues: { name: category?.name ?? "", description: category?.description ?? "" },
  });
  const nameError = errors.name?.message;
  const nameHint = "Shown on the shop's category chips; stored in lower case.";

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={handleSubmit((values) => save.mutate(values, { onSuccess: onDone }))}
    >
      <Field id="category-name" label="Name" hint={nameHint} error={nameError}>
        <input
          className={inputClass}
          autoComplete="off"
          {...describedBy("category-name", { hasHint: true, error: nameError })}
          {...register("name")}
        />
      </Field>
      <Field id="category-description" label="Description (optional)" error={errors.description?.message}>
        <textarea
          className={`${inputClass} min-h-20 py-2`}
          rows={3}
          {...describedBy("category-description", { error: errors.description?.message })}
          {...register("description")}
        />
      </Field>
      <div className="flex flex-wrap justify-end gap-2 border-t border-stone-200 pt-3">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : category ? "Save Changes" : "Create Category"}
        </Button>
      </div>
    </form>
  );
}
