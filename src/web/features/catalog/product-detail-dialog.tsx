import { useEffect, useId } from "react";
import type { Product } from "#domain/schemas/catalog.js";
import { Dialog } from "#web/components/ui/dialog.js";
import { publicConfig } from "#web/lib/public-config.js";
import { ProductDetail } from "./product-detail";

interface ProductDetailDialogProps {
  product: Product;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The product detail over the grid, at the product's address (/products/{slug}): closing it goes
 * back to the grid; its content unmounts on close, so the size and quantity start over.
 */
export default function ProductDetailDialog({ product, open, onOpenChange }: ProductDetailDialogProps) {
  const id = useId();
  const descriptionId = `${id}-description`;

  useEffect(() => {
    if (open) document.title = `${product.name} | ${publicConfig.name}`;
  }, [open, product.name]);

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={product.name}
      describedBy={descriptionId}
      size="lg"
      titleClassName="text-xl leading-snug font-bold text-stone-950 sm:text-2xl"
    >
      <ProductDetail product={product} descriptionId={descriptionId} onAdded={() => onOpenChange(false)} />
    </Dialog>
  );
}
