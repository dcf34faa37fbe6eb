// The account feature's public face: what other features may use.
export { USERS_KEY } from "./api/get-user-orders";
export { SessionProvider, useSession } from "./session";
