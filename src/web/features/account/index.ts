// The account feature's public face: what other features may use.

export { accountKeys } from "./api/keys";
export { SessionProvider, useSession } from "./session";
