// The orders area's public face: what the admin's other areas may use.
export { type OrderFilters, orderFilterParams } from "./api/get-orders";
export { OrderCard } from "./order-card";
export { type AdminOrder, cancelReasonText } from "./order-model";
export { OrderSearch } from "./order-search";
