import { capturedText, type TestApp } from "./app.js";

/**
 * Follows the link mailed to `newEmail` to confirm a change of address, as its owner would: sends
 * what is due (captured in tests), reads the link from MAIL_CAPTURE_DIR, and posts its token.
 */
export async function confirmEmailChange(
  t: TestApp,
  newEmail: string,
  kind: "email_change" | "email_confirm" = "email_change",
) {
  for (let attempt = 0; attempt < 50; attempt++) {
    await t.app.mail.deliverDue();
    const { rows } = await t.pool.query<{ id: string; status: string }>(
      "select id, status from emails where kind = $2 and to_address = $1 order by id desc limit 1",
      [newEmail, kind],
    );
    const text = rows[0]?.status === "captured" ? await capturedText(t, rows[0].id).catch(() => "") : "";
    const token = /\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
    if (token) return t.app.inject({ method: "POST", url: "/api/auth/confirm-email", payload: { token } });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no confirmation link was mailed to ${newEmail}`);
}

/** Follows the link mailed at sign-up (or by Resend) to prove an account's address, as its owner would. */
export const confirmAddress = (t: TestApp, email: string) => confirmEmailChange(t, email, "email_confirm");
