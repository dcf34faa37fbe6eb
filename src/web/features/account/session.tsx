import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import type { User } from "../../domain/schemas/account";
import { ApiError, apiRequest, getJson, onUnauthorized } from "../lib/api";
import { readJson, removeKey, writeJson } from "../lib/storage";

const USER_KEY = "user";

const USER_TEXT_FIELDS = ["id", "username", "email", "fullName", "phone", "address", "city", "zipCode"] as const;

/** A stored user of the expected shape; anything else is corrupt and silently removed (SPEC.md section 3). */
function isStoredUser(value: unknown): value is User {
  if (typeof value !== "object" || value === null) return false;
  const user = value as Record<string, unknown>;
  return (
    USER_TEXT_FIELDS.every((field) => typeof user[field] === "string") &&
    user.id !== "" &&
    (user.isAdmin === "true" || user.isAdmin === "false")
  );
}

/** Cached answers that belong to whoever is signed in: a user's orders, the admin lists. */
function forgetPrivateQueries(queryClient: QueryClient) {
  queryClient.removeQueries({
    predicate: (query) => {
      const [first] = query.queryKey;
      return typeof first === "string" && (first.startsWith("/api/users") || first.startsWith("/api/admin"));
    },
  });
}

interface SessionState {
  user: User | null;
  /** True until the server has answered who is signed in (the stored user may be missing or stale). */
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
  const [user, setUser] = useState<User | null>(() => readJson(USER_KEY, isStoredUser));
  const [loginOpen, setLoginOpen] = useState(false);
  const [restoring, setRestoring] = useState(true);
  const queryClient = useQueryClient();
  const userId = useRef(user?.id ?? null);
  userId.current = user?.id ?? null;

  // The cart provider removes the signed-out user's cart when the user id goes to null.
  const forget = useCallback(() => {
    removeKey(USER_KEY);
    setUser(null);
    forgetPrivateQueries(queryClient);
  }, [queryClient]);

  // The server's session is the truth: restore from it on load, drop a stored user it no longer knows.
  useEffect(() => {
    let cancelled = false;
    // A guest (no stored user, no session hint cookie) has no session to restore: skip the 401.
    if (!userId.current && !document.cookie.split("; ").includes("signed_in=1")) {
      setRestoring(false);
      return onUnauthorized(forget);
    }
    getJson<User>("/api/auth/me")
      .then((fresh) => {
        if (cancelled) return;
        writeJson(USER_KEY, fresh);
        setUser(fresh);
      })
      .catch((error: unknown) => {
        if (!cancelled && error instanceof ApiError && error.status === 401) forget();
      })
      .finally(() => {
        if (!cancelled) setRestoring(false);
      });
    const stop = onUnauthorized(forget);
    return () => {
      cancelled = true;
      stop();
    };
  }, [forget]);

  const signIn = useCallback(
    (next: User) => {
      if (userId.current !== next.id) forgetPrivateQueries(queryClient);
      writeJson(USER_KEY, next);
      setUser(next);
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    try {
      await apiRequest("POST", "/api/auth/logout");
    } catch {
      // The local sign-out still happens; the server session expires on its own.
    }
    forget();
  }, [forget]);

  const value = useMemo(
    () => ({ user, restoring, isAdmin: user?.isAdmin === "true", signIn, signOut, loginOpen, setLoginOpen }),
    [user, restoring, signIn, signOut, loginOpen],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const context = useContext(SessionContext);
  if (!context) throw new Error("useSession outside SessionProvider");
  return context;
}
