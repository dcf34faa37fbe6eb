import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import type { User } from "#domain/schemas/account.js";
import { ApiError, onSessionLost } from "#web/lib/api.js";
import { isServerRendered } from "#web/lib/server-rendered.js";
import { forgetStoredUser, readStoredUserId, writeStoredUserId } from "#web/lib/stored-user.js";
import { getMe } from "./api/get-me";
import { accountKeys } from "./api/keys";
import { logOut } from "./api/log-out";

/** Cached answers that belong to whoever is signed in: everything under ["account"] and ["admin"]. */
function forgetPrivateQueries(queryClient: QueryClient) {
  queryClient.removeQueries({ queryKey: accountKeys.all });
  queryClient.removeQueries({ queryKey: ["admin"] });
}

interface SessionState {
  /** The signed-in user's id: known from the browser's storage before the server answers. */
  userId: string | null;
  /** The signed-in user's profile, held in memory only (from /api/auth/me, login or a profile update). */
  user: User | null;
  /** True until the server has answered who is signed in (the stored id may be missing or stale). */
  restoring: boolean;
  isAdmin: boolean;
  /** Call with the user a successful login answers (or a profile update returns). */
  signIn: (user: User) => void;
  /** Ends the session on the server and forgets the user, their cart and their cached data here. */
  signOut: () => Promise<void>;
  /** The Account Required dialog (login / sign up). */
  loginOpen: boolean;
  setLoginOpen: (open: boolean) => void;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  // A server-rendered page was rendered for a guest: the stored id is read after hydration.
  const [userId, setUserId] = useState<string | null>(() => (isServerRendered() ? null : readStoredUserId()));
  const [user, setUser] = useState<User | null>(null);
  const [loginOpen, setLoginOpen] = useState(false);
  const [restoring, setRestoring] = useState(true);
  const queryClient = useQueryClient();
  const currentId = useRef(userId);
  currentId.current = userId;

  // The cart provider removes the signed-out user's cart when the user id goes to null.
  const forget = useCallback(() => {
    forgetStoredUser();
    setUserId(null);
    setUser(null);
    forgetPrivateQueries(queryClient);
  }, [queryClient]);

  const signIn = useCallback(
    (next: User) => {
      if (currentId.current !== next.id) forgetPrivateQueries(queryClient);
      writeStoredUserId(next.id);
      setUserId(next.id);
      setUser(next);
    },
    [queryClient],
  );

  // The server's session is the truth: restore from it on load, drop a stored id it no longer knows.
  useEffect(() => {
    let cancelled = false;
    const stored = readStoredUserId();
    if (stored !== currentId.current) {
      currentId.current = stored;
      setUserId(stored);
    }
    const stop = onSessionLost(forget);
    // A guest (no stored id, no session hint cookie) has no session to restore: skip the 401.
    if (!currentId.current && !document.cookie.split("; ").includes("signed_in=1")) {
      setRestoring(false);
      return stop;
    }
    getMe()
      .then((fresh) => {
        if (!cancelled) signIn(fresh);
      })
      .catch((error: unknown) => {
        if (cancelled || !(error instanceof ApiError)) return;
        if (error.code === "NOT_LOGGED_IN" || error.code === "SESSION_MISMATCH") forget();
      })
      .finally(() => {
        if (!cancelled) setRestoring(false);
      });
    return () => {
      cancelled = true;
      stop();
    };
  }, [forget, signIn]);

  const signOut = useCallback(async () => {
    try {
      await logOut();
    } catch {
      // The local sign-out still happens; the server session expires on its own.
    }
    forget();
  }, [forget]);

  const value = useMemo(
    () => ({
      userId,
      user,
      restoring,
      isAdmin: user?.isAdmin === "true",
      signIn,
      signOut,
      loginOpen,
      setLoginOpen,
    }),
    [userId, user, restoring, signIn, signOut, loginOpen],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const context = useContext(SessionContext);
  if (!context) throw new Error("useSession outside SessionProvider");
  return context;
}
