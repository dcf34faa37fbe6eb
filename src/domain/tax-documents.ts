/** How tax documents are numbered on paper and on the wire: INV-000001, CN-000001 (docs/decisions/009). */
const documentNumber = (prefix: string, number: number) => `${prefix}-${String(number).padStart(6, "0")}`;

export const invoiceNumberText = (number: number): string => documentNumber("INV", number);
export const creditNoteNumberText = (number: number): string => documentNumber("CN", number);

/** Where the shop serves an order's invoice and a refund's credit note (the owner or an admin). */
export const invoicePath = (orderId: string): string => `/api/orders/${orderId}/invoice.pdf`;
export const creditNotePath = (orderId: string, refundId: string): string =>
  `/api/orders/${orderId}/refunds/${refundId}/credit-note.pdf`;
