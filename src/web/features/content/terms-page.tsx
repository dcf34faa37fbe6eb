import { Link } from "wouter";
import { publicConfig } from "../../lib/public-config";
import { Bullets, Section, StaticPage } from "./static-page";

/** /terms-and-conditions: effective September 24, 2025 (docs/product.md §9). */
export default function TermsPage() {
  const shop = publicConfig;
  return (
    <StaticPage title="Terms and Conditions" dateLine="Effective date: September 24, 2025">
      <p className="leading-relaxed text-stone-700">
        These terms apply to every order placed with {shop.name} ({shop.address}). By placing an order you agree to
        them. They do not take away any of your rights under the Consumer Protection Act or the Electronic
        Communications and Transactions Act.
      </p>

      <Section title="Orders">
        <p>
          An order is accepted once your payment is confirmed. We process orders within 24 hours. If a product becomes
          unavailable after you have ordered, we will contact you and refund you for it in full.
        </p>
      </Section>

      <Section title="Prices and payment">
        <Bullets
          items={[
            "All prices are in South African rand and include 15% VAT.",
            "Delivery costs R75.00 on orders below R500.00 and is free on orders of R500.00 or more.",
            "Payment is made securely through PayFast by card or instant EFT. We never see or store your card details.",
            "The price charged is the price shown when you place your order.",
          ]}
        />
      </Section>

      <Section title="Delivery">
        <p>
          We deliver nationwide by courier. Delivery takes 2-5 business days from when your order is processed. Please
          make sure your delivery address and phone number are correct so that the courier can reach you.
        </p>
      </Section>

      <Section title="Returns">
        <p>
          Defective products may be returned within 6 months of delivery, as set out in our{" "}
          <Link className="font-medium text-brand-800 underline" href="/return-policy">
            Return Policy
          </Link>
          .
        </p>
      </Section>

      <Section title="Your account">
        <p>
          You are responsible for keeping your password private and for the orders placed with your account. Tell us
          straight away if you think someone else has used it.
        </p>
      </Section>

      <Section title="Product information">
        <p>
          We describe our products as accurately as we can. Product information is not medical advice: please speak to a
          doctor, nurse or pharmacist about continence or skin concerns.
        </p>
      </Section>

      <Section title="Contact">
        <p>
          Questions about these terms? E-mail{" "}
          <a className="font-medium text-brand-800 underline" href={`mailto:${shop.email}`}>
            {shop.email}
          </a>{" "}
          or call {shop.phone}, {shop.hours}. These terms are governed by the laws of the Republic of South Africa.
        </p>
      </Section>
    </StaticPage>
  );
}
