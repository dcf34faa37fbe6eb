import { formatDateTime } from "#domain/sa-format.js";
import { Button } from "#web/components/ui/button.js";
import { toast } from "#web/components/ui/toast.js";
import { errorMessage } from "#web/lib/api.js";
import { useEndOtherSessions, useEndSession, useSessions } from "./api/sessions";
import { useSession } from "./session";

/** The profile's "Where you're signed in" card: each device, its address and last use, and signing it out. */
export function SessionsSection() {
  const { data, isPending, isError } = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const { signOut } = useSession();
  const others = data?.filter((entry) => !entry.current).length ?? 0;
  return (
    <section
      aria-labelledby="sessions-heading"
      className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="sessions-heading" className="text-lg font-semibold text-stone-950">
            Where you're signed in
          </h2>
          <p className="mt-1 text-sm text-stone-600">
            Sign out any device you do not recognise, then change your password.
          </p>
        </div>
        {others > 0 && (
          <Button
            variant="outline"
            disabled={endOthers.isPending}
            onClick={() =>
              endOthers.mutate(undefined, {
                onSuccess: ({ ended }) =>
                  toast({
                    title: `Signed out ${ended} other ${ended === 1 ? "device" : "devices"}`,
                    variant: "success",
                  }),
                onError: (error) =>
                  toast({
                    title: "Could not sign out",
                    description: errorMessage(error, "Please try again."),
                    variant: "error",
                  }),
              })
            }
          >
            Sign out all other devices
          </Button>
        )}
      </div>
      {isPending ? (
        <p className="mt-3 text-sm text-stone-600">Loading...</p>
      ) : isError ? (
        <p className="mt-3 text-sm text-red-800">Could not load your sessions. Reload the page to try again.</p>
      ) : (
        <ul aria-label="Signed-in devices" className="mt-4 divide-y divide-stone-100">
          {data.map((entry) => (
            <li key={entry.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
              <div className="min-w-0">
                <p className="font-semibold text-stone-900">
                  {entry.device}
                  {entry.current && (
                    <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-900">
                      This device
                    </span>
                  )}
                </p>
                <p className="text-stone-600">
                  <span className="font-mono text-xs">{entry.address}</span> · last used{" "}
                  {formatDateTime(entry.lastSeenAt)}
                </p>
              </div>
              <Button
                variant="danger-outline"
                disabled={endOne.isPending}
                aria-label={`Sign out ${entry.device}${entry.current ? " (this device)" : ""}`}
                onClick={() => endOne.mutate(entry.id, { onSuccess: () => entry.current && signOut() })}
              >
                Sign out
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
