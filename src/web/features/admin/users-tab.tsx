import { useAdminUsers } from "./api/get-users";
import { EmptyState } from "./ui";

export function UsersTab() {
  // Requested as the spec's calls list says; the list itself is not shown yet.
  useAdminUsers();
  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading" className="mb-4 text-lg font-bold text-stone-900">
        Users
      </h2>
      <EmptyState title="User management is coming soon.">
        Customers can already register, sign in and update their own details.
      </EmptyState>
    </section>
  );
}
