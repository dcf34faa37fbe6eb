import { apiRequest } from "#web/lib/api.js";

/** POST /api/auth/logout: ends the session on the server. */
export function logOut() {
  return apiRequest<void>("POST", "/api/auth/logout");
}
