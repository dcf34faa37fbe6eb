/** Orders are shown by the last 8 characters of their UUID. */
export function orderNumber(orderId: string): string {
  return orderId.slice(-8).toUpperCase();
}
