import type { Product } from "#domain/schemas/catalog.js";
import { fitText, sizesByRange } from "#domain/size-fit.js";

/** A product's size guide (issue 42): each size and the weight or waist it fits, smallest first. */
export function SizeGuide({ product, headingLevel }: { product: Product; headingLevel: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const measure = product.fitMeasure;
  const rows = measure
    ? sizesByRange({ sizes: product.sizes, fitMeasure: measure, sizeFits: product.sizeFits ?? {} })
    : [];
  if (!measure || rows.length === 0) return null;
  return (
    // Not labelled by its heading: "Size" would then name two things in the detail (the size menu is found by it).
    <div className="rounded-xl border border-stone-200 p-3">
      <Heading className="text-sm font-semibold text-stone-900">Size guide</Heading>
      <table className="mt-2 w-full text-sm">
        <thead>
          <tr className="text-left text-stone-600">
            <th scope="col" className="py-1 font-medium">
              Size
            </th>
            <th scope="col" className="py-1 font-medium">
              {measure === "weight" ? "Baby's weight" : "Waist"}
            </th>
          </tr>
        </thead>
        <tbody className="tabular divide-y divide-stone-100">
          {rows.map(({ size, range }) => (
            <tr key={size}>
              <td className="py-1.5 pr-3 text-stone-900">{size}</td>
              <td className="py-1.5 text-stone-800">{fitText(measure, range)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-stone-600">
        Between sizes? Take the bigger one: it leaks less as your baby grows.
      </p>
    </div>
  );
}
