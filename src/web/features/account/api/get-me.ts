import type { User } from "#domain/schemas/account.js";
import { apiGet } from "#web/lib/api.js";

/** GET /api/auth/me: who the session belongs to (the session restores from it on every load). */
export function getMe() {
  return apiGet<User>("/api/auth/me");
}
