import { sql } from "drizzle-orm";
import { generate } from "otplib";
import type { TestApp } from "./app.js";

/** The code of this 30-second step (`steps` = 0), or of the next one (1): the shop takes one step of drift. */
export const codeAt = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** Turns two-step sign-in on for the admin of `cookie` through the API, as the profile page does. */
export async function enrolSecondFactor(
  t: TestApp,
  cookie: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await t.app.inject({ method: "POST", url: "/api/auth/2fa/setup", headers: { cookie } });
  if (setup.statusCode !== 200) throw new Error(`2fa setup failed: ${setup.statusCode} ${setup.body}`);
  const { secret } = setup.json() as { secret: string };
  const enabled = await t.app.inject({
    method: "POST",
    url: "/api/auth/2fa/enable",
    headers: { cookie },
    payload: { code: await codeAt(secret) },
  });
  if (enabled.statusCode !== 200) throw new Error(`2fa enable failed: ${enabled.statusCode} ${enabled.body}`);
  return { secret, recoveryCodes: (enabled.json() as { recoveryCodes: string[] }).recoveryCodes };
}

/** Makes every session's last step-up of this user (code or password) older than the step-up window. */
export async function ageStepUp(t: TestApp, userId: string): Promise<void> {
  await t.db.execute(
    sql`update sessions set second_factor_at = second_factor_at - interval '1 day', password_confirmed_at = password_confirmed_at - interval '1 day' where user_id = ${userId}`,
  );
}
