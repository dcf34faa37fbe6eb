// Dialogs and the cart sheet load on first use (or on hover), keeping them out of the first-load bundle.
export const loadLoginDialog = () => import("../features/account/login-dialog");
export const loadCartSheet = () => import("../features/cart/cart-sheet");
export const loadAboutDialog = () => import("../features/content/about-dialog");
export const loadRequestsDialog = () => import("../features/content/requests-dialog");
