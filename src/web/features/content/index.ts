// The content feature's public face: what other features may use.
export { NotFoundPage } from "./not-found-page";
