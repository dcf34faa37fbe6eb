import { z } from "zod";

/** One of the signed-in user's sessions, as their list shows it. */
export const activeSession = z.object({
  /** A short handle of the session (a prefix of its token's hash): it grants nothing. */
  id: z.string(),
  current: z.boolean(),
  device: z.string(),
  /** The client address at login. */
  address: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
});
export type ActiveSession = z.infer<typeof activeSession>;

export const sessionIdParam = z.object({
  id: z.string().regex(/^[0-9a-f]{16}$/, "id must be a session id from the list"),
});
