import { formatDocumentDate } from "#domain/sa-format.js";
import { block, facts, footer, PAGE, renderPdf, shopHeader, table } from "./pdf.js";
import { customerLines, type DocumentCustomer, type PackingSlipsData } from "./types.js";

/** Where the parcel goes and what the courier needs: the numbers to call and the instructions, when given. */
export function deliverToLines(customer: DocumentCustomer): string[] {
  return [
    ...customerLines(customer),
    customer.phone,
    customer.altPhone ? `Other number: ${customer.altPhone}` : "",
    customer.deliveryInstructions ? `Instructions: ${customer.deliveryInstructions}` : "",
  ];
}

/** One page per order paid on the day: what goes in the parcel (lines, sizes, quantities) and where to; no prices. */
export function packingSlipsPdf(data: PackingSlipsData): Promise<Buffer> {
  const day = formatDocumentDate(new Date(`${data.date}T12:00:00+02:00`));
  return renderPdf({ title: `Packing slips ${data.date}`, author: data.shop.name, created: new Date() }, (doc) => {
    if (data.orders.length === 0) {
      shopHeader(doc, data.shop, "Packing slips");
      doc.font("regular").fontSize(11).text(`No orders were paid on ${day}.`, PAGE.left, 160);
      return;
    }
    data.orders.forEach((order, index) => {
      if (index > 0) doc.addPage();
      const top = shopHeader(doc, data.shop, "Packing slip");
      const { customer } = order;
      const left = block(doc, "Deliver to", deliverToLines(customer), PAGE.left, top, 250);
      const right = facts(
        doc,
        [
          ["Order", `#${order.orderNumber}`],
          ["Paid", formatDocumentDate(order.paidAt)],
          ["Items", String(order.lines.reduce((sum, line) => sum + line.quantity, 0))],
        ],
        330,
        top,
        PAGE.right - 330,
      );
      table(
        doc,
        [
          { label: "Packed", width: 50 },
          { label: "Item", width: 285 },
          { label: "Size", width: 100 },
          { label: "Qty", width: 60, align: "right" },
        ],
        order.lines.map((line) => ["☐", line.name, line.size, String(line.quantity)]),
        Math.max(left, right) + 24,
      );
      footer(doc, `Slip ${index + 1} of ${data.orders.length} · paid on ${day}`);
    });
  });
}
