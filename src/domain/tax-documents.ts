/** How tax documents are numbered on paper and on the wire: INV-000001, CN-000001 (docs/decisions/009). */
const documentNumber = (prefix: string, number: number) => `${prefix}-${String(number).padStart(6, "0")}`;

export const invoiceNumberText = (number: number): string => documentNumber("INV", number);
export const creditNoteNumberText = (number: number): string => documentNumber("CN", number);
