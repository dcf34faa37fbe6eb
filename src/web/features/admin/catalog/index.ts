// The catalogue area's public face: what the admin's other areas may use.
export { LowStockList } from "./low-stock-list";
