import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ TRUST_PROXY: "127.0.0.1" });
});
afterAll(() => t.close());

const PHONE =
  "Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const LAPTOP = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

/** Logs `user` in again from another device and address; answers that session's cookie. */
async function logInFrom(user: LoggedInUser, userAgent: string, address: string): Promise<string> {
  const login = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    headers: { "user-agent": userAgent, "x-forwarded-for": address },
    payload: { username: user.user.username, password: user.password },
  });
  expect(login.statusCode).toBe(200);
  const sid = login.cookies.find((cookie) => cookie.name === t.app.config.session.cookieName);
  return `${sid?.name}=${sid?.value}`;
}

const list = (cookie: string) => t.app.inject({ method: "GET", url: "/api/auth/sessions", headers: { cookie } });
const me = async (cookie: string) =>
  (await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } })).statusCode;

describe("a user's sessions", () => {
  it("lists each device with its address and last use, marks this one, and ends another remotely", async () => {
    const user = await registerAndLogin(t);
    const phone = await logInFrom(user, PHONE, "198.51.100.20");
    const laptop = await logInFrom(user, LAPTOP, "203.0.113.7");
    const listed = await list(laptop);
    expect(listed.statusCode).toBe(200);
    const sessions = listed.json() as { id: string; current: boolean; device: string; address: string }[];
    expect(sessions).toHaveLength(3);
    expect(sessions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ device: "Chrome on Android", address: "198.51.100.20", current: false }),
        expect.objectContaining({ device: "Firefox on Linux", address: "203.0.113.7", current: true }),
      ]),
    );
    expect(sessions[0]).toMatchObject({ lastSeenAt: expect.any(String), createdAt: expect.any(String) });

    const phoneId = sessions.find((session) => session.device === "Chrome on Android")?.id;
    const ended = await t.app.inject({
      method: "DELETE",
      url: `/api/auth/sessions/${phoneId}`,
      headers: { cookie: laptop },
    });
    expect(ended.statusCode).toBe(204);
    expect(await me(phone)).toBe(401);
    expect(await me(laptop)).toBe(200);
    const again = await t.app.inject({
      method: "DELETE",
      url: `/api/auth/sessions/${phoneId}`,
      headers: { cookie: laptop },
    });
    expect(again.statusCode).toBe(404);
  });

  it("signs out every other device at once, keeping this one", async () => {
    const user = await registerAndLogin(t);
    const other = await logInFrom(user, PHONE, "198.51.100.21");
    const here = await logInFrom(user, LAPTOP, "203.0.113.8");
    const ended = await t.app.inject({
      method: "POST",
      url: "/api/auth/sessions/end-others",
      headers: { cookie: here },
    });
    expect(ended.json()).toEqual({ ended: 2 });
    expect(await me(other)).toBe(401);
    expect(await me(user.cookie)).toBe(401);
    expect(await me(here)).toBe(200);
    expect((await list(here)).json()).toHaveLength(1);
  });

  it("ends this session when it is the one named, and never another user's", async () => {
    const user = await registerAndLogin(t);
    const stranger = await registerAndLogin(t);
    const [mine] = (await list(user.cookie)).json() as { id: string }[];
    const [theirs] = (await list(stranger.cookie)).json() as { id: string }[];
    const refused = await t.app.inject({
      method: "DELETE",
      url: `/api/auth/sessions/${theirs?.id}`,
      headers: { cookie: user.cookie },
    });
    expect(refused.statusCode).toBe(404);
    expect(await me(stranger.cookie)).toBe(200);
    const bad = await t.app.inject({
      method: "DELETE",
      url: "/api/auth/sessions/not-an-id",
      headers: { cookie: user.cookie },
    });
    expect(bad.statusCode).toBe(400);
    const self = await t.app.inject({
      method: "DELETE",
      url: `/api/auth/sessions/${mine?.id}`,
      headers: { cookie: user.cookie },
    });
    expect(self.statusCode).toBe(204);
    expect(await me(user.cookie)).toBe(401);
    expect((await list(user.cookie)).statusCode).toBe(401);
  });

  it("lets an admin, too, see their devices and end one or all of the others", async () => {
    const admin = await registerAndLogin(t, { admin: true });
    const phone = await logInFrom(admin, PHONE, "198.51.100.30");
    const laptop = await logInFrom(admin, LAPTOP, "203.0.113.30");
    const sessions = (await list(laptop)).json() as { id: string; device: string; address: string }[];
    expect(sessions).toHaveLength(3);
    const phoneId = sessions.find((session) => session.address === "198.51.100.30")?.id;
    expect(
      (await t.app.inject({ method: "DELETE", url: `/api/auth/sessions/${phoneId}`, headers: { cookie: laptop } }))
        .statusCode,
    ).toBe(204);
    expect(await me(phone)).toBe(401);
    const ended = await t.app.inject({
      method: "POST",
      url: "/api/auth/sessions/end-others",
      headers: { cookie: laptop },
    });
    expect(ended.json()).toEqual({ ended: 1 });
    expect(await me(admin.cookie)).toBe(401);
    const panel = await t.app.inject({ method: "GET", url: "/api/admin/orders", headers: { cookie: laptop } });
    expect(panel.statusCode).toBe(200);
  });
});
