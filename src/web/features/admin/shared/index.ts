// The shared area's public face: what the admin's other areas may use.
export {
  ADMIN_AUDIT_KEY,
  ADMIN_CATEGORIES_KEY,
  ADMIN_DASHBOARD_KEY,
  ADMIN_EMAILS_KEY,
  ADMIN_HOLDERS_KEY,
  ADMIN_ORDERS_KEY,
  ADMIN_PRODUCTS_KEY,
  ADMIN_RETURNS_KEY,
  ADMIN_USERS_KEY,
  catalogueChanged,
  ordersChanged,
  PAYMENT_ATTENTION_KEY,
  PREPARING_ORDERS_KEY,
} from "./api/keys";
export { describedBy, Field, sentence } from "./form-fields";
export { LoadMore } from "./load-more";
export { PagedList } from "./paged-list";
export { SearchField } from "./search-field";
export { ensureFreshSecondFactor, withStepUp } from "./step-up";
export { EmptyState, inputClass, LoadError, LoadingRows, Panel, SectionHeader, StatCard } from "./ui";
