export { categoryBadge } from "../../domain/catalog";
export { formatRand, formatRandText } from "../../domain/money";
export { orderNumber, orderStatusLabel } from "../../domain/order-status";
