// The shared area's public face: what the admin's other areas may use.
export { adminKeys, catalogChanged, ordersChanged } from "./api/keys";
export { describedBy, Field, sentence } from "./form-fields";
export { LoadMore } from "./load-more";
export { PagedList } from "./paged-list";
export { SearchField } from "./search-field";
export { confirmBeforeDownload, ensureFreshSecondFactor, withStepUp } from "./step-up";
export { EmptyState, inputClass, LoadError, LoadingRows, Panel, SectionHeader, StatCard } from "./ui";
