import { publicConfig, telHref } from "../../lib/public-config";
import { Bullets, Section, StaticPage } from "./static-page";

/** /return-policy (docs/product.md §9: defective goods within 6 months of delivery). */
export default function ReturnPolicyPage() {
  const shop = publicConfig;
  return (
    <StaticPage title="Return Policy" dateLine="Last updated: September 18, 2025">
      <p className="leading-relaxed text-stone-700">
        We want every order from {shop.name} to arrive in perfect condition. If something is wrong with a product, we
        will put it right, as the Consumer Protection Act provides.
      </p>

      <Section title="Defective goods">
        <p>
          You may return a defective product within 6 months of delivery. We will repair or replace it, or refund you,
          whichever you prefer.
        </p>
        <Bullets
          items={[
            "A product is defective when it is damaged, faulty or not what you ordered.",
            "We cover the shipping costs of returning a defective product.",
            "Please keep the product and its packaging until we have sorted out your return.",
          ]}
        />
      </Section>

      <Section title="Non-defective goods">
        <p>
          Because our products are personal hygiene items, we cannot accept returns of products that are not defective,
          whether opened or unopened. Please check sizes carefully before you order, and contact us if you are unsure
          which size to choose.
        </p>
      </Section>

      <Section title="Refunds">
        <p>
          Once we have received and checked a returned product, we refund you to your original payment method within 15
          business days. We will let you know by e-mail when your refund has been processed.
        </p>
      </Section>

      <Section title="How to return a product">
        <Bullets
          items={[
            <>
              E-mail us at{" "}
              <a className="font-medium text-brand-800 underline" href={`mailto:${shop.email}`}>
                {shop.email}
              </a>{" "}
              or call{" "}
              <a className="font-medium text-brand-800 underline" href={telHref(shop.phone)}>
                {shop.phone}
              </a>{" "}
              ({shop.hours}).
            </>,
            "Tell us your order number (the last 8 characters shown on your confirmation) and what is wrong, with a photo if you can.",
            "We will arrange a courier to collect the product at no cost to you.",
          ]}
        />
      </Section>
    </StaticPage>
  );
}
