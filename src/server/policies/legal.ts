import { formatRand } from "#domain/money.js";
import { CGSO, type LegalItem, type LegalPage, policyPath } from "#domain/policies.js";
import { DELIVERY_FEE_CENTS, DISPATCH_PROMISE, FREE_DELIVERY_THRESHOLD_CENTS } from "#domain/pricing.js";
import { LAST_RETURN_DUE_MONTHS } from "#domain/retention.js";
import { COMPLAINT_BUSINESS_DAYS } from "#domain/returns.js";
import { legalEntityName } from "#domain/seller.js";
import { vatWording } from "#domain/vat-wording.js";
import type { Config } from "../platform/config.js";

type LegalSettings = Pick<Config, "shop" | "seller" | "publicUrl" | "retentionYears">;

const link = (label: string, href: string) => ({ label, href });

/**
 * The Legal page: every item ECTA s43(1) makes an online seller show (docs/legal.md), each
 * from the configuration or the shop's own facts, so a change of setting or rule shows here.
 */
export function legalPage(config: LegalSettings): LegalPage {
  const { seller } = config;
  const entity = legalEntityName(seller.legalName, seller.legalStatus);
  return {
    demo: seller.demo,
    seller: entity,
    items: [...sellerItems(config, entity), ...saleItems(config), ...afterSaleItems(config)],
  };
}

/** Items (a) to (g): who the seller is, how to reach it, the codes it is bound by, where to serve papers. */
function sellerItems({ shop, seller, publicUrl }: LegalSettings, entity: string): LegalItem[] {
  const website = new URL(publicUrl).host;
  return [
    {
      item: "a",
      title: "Who we are",
      text: [
        `${shop.name} is run by ${seller.legalName}.`,
        `Legal status: ${seller.legalStatus}.`,
        shop.vatNumber ? `VAT registration number: ${shop.vatNumber}.` : "We are not registered for VAT.",
      ],
    },
    {
      item: "b",
      title: "Address and telephone",
      text: [`Physical address: ${shop.address}.`, `Telephone: ${shop.phone} (${shop.hours}).`],
    },
    {
      item: "c",
      title: "Website and e-mail",
      text: [`Website: ${website}.`, `E-mail: ${shop.email}.`],
      links: [link(website, publicUrl), link(shop.email, `mailto:${shop.email}`)],
    },
    {
      item: "d",
      title: "Self-regulatory and accreditation bodies",
      text: [
        `We belong to no self-regulatory or accreditation body. As a supplier of consumer goods we are bound by the ${CGSO.code}, which the ${CGSO.name} administers: ${CGSO.websiteLabel}, ${CGSO.phone}, ${CGSO.email}.`,
      ],
      links: [link(CGSO.websiteLabel, CGSO.website), link(CGSO.email, `mailto:${CGSO.email}`)],
    },
    {
      item: "e",
      title: "Code of conduct",
      text: [
        `We subscribe to the ${CGSO.code} (Consumer Protection Act, section 82). You can read it on the CGSO's website, ${CGSO.websiteLabel}.`,
      ],
      links: [link(`The Code at ${CGSO.websiteLabel}`, CGSO.website)],
    },
    {
      item: "f",
      title: "Registration",
      text: seller.legalPerson
        ? [
            `Registration number: ${seller.registrationNumber ?? "not given"}.`,
            `Office bearers: ${seller.directors.join(", ") || "not given"}.`,
            `Place of registration: ${seller.placeOfRegistration ?? "not given"}.`,
          ]
        : [`${entity} is not a company or close corporation, so it has no registration number or office bearers.`],
    },
    {
      item: "g",
      title: "Address for service of legal documents",
      text: [`${seller.serviceAddress}.`],
    },
  ];
}

/** Items (h) to (m): the goods, their full price, payment, the terms, delivery and the record kept. */
function saleItems({ shop, retentionYears }: LegalSettings): LegalItem[] {
  return [
    {
      item: "h",
      title: "The goods",
      text: [
        "Each product's page describes its main characteristics: what it is, its sizes, what a pack holds, its price and whether it is in stock.",
      ],
      links: [link("Browse the products", "/#products")],
    },
    {
      item: "i",
      title: "Full price",
      text: [
        vatWording(shop.vatNumber !== null).fullPrice,
        `Delivery costs ${formatRand(DELIVERY_FEE_CENTS)} on orders below ${formatRand(FREE_DELIVERY_THRESHOLD_CENTS)} and is free from ${formatRand(FREE_DELIVERY_THRESHOLD_CENTS)}. There are no other fees: the checkout shows the whole price before you pay.`,
      ],
    },
    {
      item: "j",
      title: "How to pay",
      text: [
        "By card or instant EFT through PayFast: the checkout sends you to PayFast's secure payment page. We never see or store your card details.",
      ],
    },
    {
      item: "k",
      title: "Terms of agreement",
      text: [
        "Our Terms and Conditions set out the agreement, including the guarantees on our goods. Each version stays readable at its own address, and every order links the version it was placed under: open it in your browser, then save or print it to keep a copy.",
      ],
      links: [link("Terms and Conditions", policyPath("terms"))],
    },
    {
      item: "l",
      title: "Dispatch and delivery",
      text: [`${DISPATCH_PROMISE} The courier delivers in 2-5 business days, anywhere in South Africa.`],
    },
    {
      item: "m",
      title: "Your record of the transaction",
      text: [
        `Every order is kept in your account (Profile, Order History) with its tax invoice to download, and we e-mail you a confirmation when it is paid. We keep orders and invoices on our servers in our database for ${retentionYears} years after the end of the tax year (the end of February) in which the order was placed, plus the ${LAST_RETURN_DUE_MONTHS} months until that year's income tax return is due: a company keeps its records for 7 years (Companies Act s24), and tax records are kept 5 years from the submission of the return (Tax Administration Act s29(3)(a)). After that the personal details on them are anonymised.`,
      ],
    },
  ];
}

/** Items (n) to (r): returns, complaints, security and privacy, the plans' duration, cooling-off. */
function afterSaleItems({ shop, seller }: LegalSettings): LegalItem[] {
  return [
    {
      item: "n",
      title: "Returns, exchanges and refunds",
      text: [
        "Sealed, unopened goods may be returned within 7 days from the day you receive the goods, for any reason (ECTA s44(1)), and the whole payment is refunded within 30 days of the cancellation (ECTA s44(3)); a wrong size (sealed) may be exchanged or refunded within 7 days; defective goods or goods not as ordered within 6 months (CPA s56). A last day on a Sunday or public holiday moves to the next business day. Opened hygiene products only when defective. Paid goods we cannot supply are refunded within 30 days of telling you (ECTA s46(3)). Your CPA s20 rights are not affected.",
      ],
      links: [link("Return Policy", policyPath("return-policy"))],
    },
    {
      item: "o",
      title: "Complaints and alternative dispute resolution",
      text: [
        `Tell us first: use "Return or report a problem" on your order, or e-mail ${shop.email}. We record every complaint and resolve it within ${COMPLAINT_BUSINESS_DAYS} business days.`,
        `If we have not resolved it, you may take it to the ${CGSO.name}, free of charge: ${CGSO.websiteLabel}, telephone ${CGSO.phone}, e-mail ${CGSO.email}.`,
      ],
      links: [link(CGSO.websiteLabel, CGSO.website), link(CGSO.email, `mailto:${CGSO.email}`)],
    },
    {
      item: "p",
      title: "Security and privacy",
      text: [
        "Payments are taken on PayFast's secure pages, never on ours. The whole site runs over an encrypted connection, and passwords are stored only as memory-hard hashes.",
        `Our Privacy Policy says what personal information we collect, why, who receives it and your rights. Our Information Officer is ${seller.informationOfficer.name} (${seller.informationOfficer.email}).`,
      ],
      links: [link("Privacy Policy", policyPath("privacy")), link("PAIA manual", policyPath("paia-manual"))],
    },
    {
      item: "q",
      title: "Minimum duration of the agreement",
      text: [
        "A nappy plan (a box delivered every 2 to 8 weeks) has no minimum duration: you may skip, pause or cancel it at any time in My plans, with no fee, and cancelling stops every later charge at once. Every other order is one supply.",
        `Each box is priced on its charge day at that day's prices less the plan's saving, plus delivery (free from ${formatRand(FREE_DELIVERY_THRESHOLD_CENTS)}); we e-mail you the box and its price 3 days before each charge. Each box is its own order, and the cooling-off below applies to each.`,
      ],
      links: [link("Terms and Conditions (Nappy plans)", policyPath("terms"))],
    },
    {
      item: "r",
      title: "Your right to cancel (cooling-off)",
      text: [
        "Under section 44 of the Electronic Communications and Transactions Act you may cancel within 7 days after receiving the goods, without reason and without penalty. The only charge is the direct cost of returning the goods, and we refund the whole payment, the delivery fee included, within 30 days.",
      ],
      links: [link("Return Policy", policyPath("return-policy"))],
    },
  ];
}
