// wouter imports useSyncExternalStore from the `use-sync-external-store` shim, written for React
// before 18; React 19 has it built in. vite.config.ts points the shim here, which saves the shim
// and its CommonJS wrapper in the storefront's first load (about 0.5 KB gzip).
export { useSyncExternalStore } from "react";
