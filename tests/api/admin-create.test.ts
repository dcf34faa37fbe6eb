import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD_MAX, PASSWORD_MIN } from "#domain/limits.js";
import {
  AdminInputError,
  checkPassword,
  checkTypedValues,
  createAdmin,
  describeOutcome,
  type PasswordSource,
  parseAdminArgs,
  promoteToAdmin,
  readPassword,
} from "#server/cli/admin-create.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

function newAccount() {
  const tag = randomBytes(4).toString("hex");
  return { username: `boss_${tag}`, email: `boss.${tag}@example.co.za`, password: `long enough ${tag}` };
}

async function registered() {
  const account = newAccount();
  const response = await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: { ...account, fullName: "Thandi Mokoena" },
  });
  expect(response.statusCode).toBe(201);
  return account;
}

const login = (username: string, password: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload: { username, password } });

async function isAdmin(username: string) {
  const { rows } = await t.pool.query<{ is_admin: boolean }>("select is_admin from users where username = $1", [
    username,
  ]);
  return rows[0]?.is_admin;
}

describe("creating a new admin", () => {
  it("creates an admin whose full name defaults to the username, who can then log in", async () => {
    const account = newAccount();
    const outcome = await createAdmin(t.db, account);
    expect(outcome).toEqual({ action: "created", username: account.username, email: account.email });
    expect(describeOutcome(outcome)).toBe(`Created admin ${account.username} (${account.email}). They can log in now.`);
    const response = await login(account.username, account.password);
    expect(response.json()).toMatchObject({ isAdmin: "true", fullName: account.username });
  });

  it("refuses a username or an e-mail already someone's, pointing at --promote, and changes nobody", async () => {
    const existing = await registered();
    for (const clash of [
      { ...newAccount(), username: existing.username.toUpperCase() },
      { ...newAccount(), email: existing.email.toUpperCase() },
    ]) {
      await expect(createAdmin(t.db, clash)).rejects.toThrow(/already has that username or e-mail.*--promote/);
    }
    expect(await isAdmin(existing.username)).toBe(false);
    expect((await login(existing.username, existing.password)).json()).toMatchObject({ isAdmin: "false" });
  });

  it("keeps sign-up's password rules: at least PASSWORD_MIN characters, at most PASSWORD_MAX", async () => {
    expect(() => checkPassword("x".repeat(PASSWORD_MIN - 1))).toThrow(/password must be at least 8 characters/);
    expect(() => checkPassword("x".repeat(PASSWORD_MAX + 1))).toThrow(/password must be at most/);
    expect(checkPassword("x".repeat(PASSWORD_MAX))).toHaveLength(PASSWORD_MAX);
    await expect(createAdmin(t.db, { ...newAccount(), password: "short" })).rejects.toThrow(AdminInputError);
  });
});

describe("--promote", () => {
  it("makes the user an admin when the username and the e-mail are both theirs, keeping their password", async () => {
    const account = await registered();
    const outcome = await promoteToAdmin(t.db, {
      username: account.username.toUpperCase(),
      email: account.email.toUpperCase(),
    });
    expect(outcome).toEqual({ action: "promoted", username: account.username, email: account.email });
    expect(describeOutcome(outcome)).toBe(
      `Promoted ${account.username} (${account.email}) to admin. Their password is unchanged.`,
    );
    expect((await login(account.username, account.password)).json()).toMatchObject({ isAdmin: "true" });
    expect(await promoteToAdmin(t.db, account)).toMatchObject({ action: "already-admin" });
  });

  it("refuses a username of one user with the e-mail of another, and promotes neither", async () => {
    const one = await registered();
    const two = await registered();
    await expect(promoteToAdmin(t.db, { username: one.username, email: two.email })).rejects.toThrow(
      /is not the e-mail of the user .*nothing was changed/,
    );
    expect(await isAdmin(one.username)).toBe(false);
    expect(await isAdmin(two.username)).toBe(false);
  });

  it("refuses an e-mail that is nobody's, and a username that is nobody's", async () => {
    const account = await registered();
    await expect(promoteToAdmin(t.db, { username: account.username, email: "someone@else.co.za" })).rejects.toThrow(
      AdminInputError,
    );
    await expect(promoteToAdmin(t.db, { username: "nobody_here", email: account.email })).rejects.toThrow(
      /No user has the username nobody_here/,
    );
    expect(await isAdmin(account.username)).toBe(false);
  });
});

describe("what the command line takes", () => {
  it("refuses a password on the command line in every spelling, saying how to give it instead", () => {
    for (const argv of [
      ["--username", "boss", "--email", "boss@x.co.za", "--password", "secret-pw"],
      ["--username", "boss", "--email", "boss@x.co.za", "--password=secret-pw"],
      ["--username", "boss", "--email", "boss@x.co.za", "-p", "secret-pw"],
      ["-psecret-pw", "--username", "boss", "--email", "boss@x.co.za"],
    ]) {
      expect(() => parseAdminArgs(argv)).toThrow(/--password is not accepted[\s\S]*prompt[\s\S]*standard input/);
    }
  });

  it("needs both --username and --email, and refuses unknown options and --full-name with --promote", () => {
    expect(() => parseAdminArgs(["--usernam", "x"])).toThrow(AdminInputError);
    expect(() => checkTypedValues(parseAdminArgs(["--username", "boss"]))).toThrow(/Give --email/);
    expect(() => checkTypedValues(parseAdminArgs(["--email", "boss@x.co.za"]))).toThrow(/Give --username/);
    expect(() =>
      checkTypedValues(parseAdminArgs(["--promote", "-u", "boss", "-e", "boss@x.co.za", "--full-name", "B"])),
    ).toThrow(/--full-name is for a new admin/);
    expect(() => checkTypedValues(parseAdminArgs(["-u", "x y", "-e", "bad"]))).toThrow(
      /email must be a valid email address/,
    );
    expect(parseAdminArgs(["--username", " boss ", "--email", "boss@x.co.za", "--full-name", "The Boss"])).toEqual({
      username: "boss",
      email: "boss@x.co.za",
      fullName: "The Boss",
      promote: false,
      help: false,
    });
    expect(parseAdminArgs(["--promote", "-u", "boss", "-e", "boss@x.co.za"])).toMatchObject({ promote: true });
  });
});

/** A terminal that "types" each chunk, recording what the program writes and whether echo was off. */
function fakeTerminal(keystrokes: string[]) {
  const events = new EventEmitter();
  const rawModes: boolean[] = [];
  let next = 0;
  let paused = true;
  // Key presses arrive one chunk at a time while the program listens, as from a real terminal.
  const pump = () => {
    const chunk = keystrokes[next];
    if (paused || chunk === undefined) return;
    next++;
    events.emit("data", chunk);
    setImmediate(pump);
  };
  const terminal: PasswordSource = {
    isTTY: true,
    setRawMode: (mode: boolean) => rawModes.push(mode),
    setEncoding: () => undefined,
    on: (event, listener) => events.on(event, listener),
    off: (event, listener) => events.off(event, listener),
    resume: () => {
      paused = false;
      setImmediate(pump);
    },
    pause: () => {
      paused = true;
    },
  };
  let written = "";
  const output = { write: (text: string) => (written += text) };
  return { terminal, output, rawModes, written: () => written };
}

describe("reading the password", () => {
  it("takes the first line of standard input when it is not a terminal", async () => {
    expect(await readPassword(Readable.from(["correct horse battery\n"]) as unknown as PasswordSource)).toBe(
      "correct horse battery",
    );
    expect(await readPassword(Readable.from(["from-windows-pipe\r\nsecond line\n"]) as unknown as PasswordSource)).toBe(
      "from-windows-pipe",
    );
    expect(await readPassword(Readable.from(["no-newline-at-end"]) as unknown as PasswordSource)).toBe(
      "no-newline-at-end",
    );
  });

  it("refuses an empty standard input and a password too short for sign-up", async () => {
    await expect(readPassword(Readable.from([]) as unknown as PasswordSource)).rejects.toThrow(
      /No password on standard input/,
    );
    await expect(readPassword(Readable.from(["short\n"]) as unknown as PasswordSource)).rejects.toThrow(
      /password must be at least 8 characters/,
    );
  });

  it("asks twice at a terminal with echo off, and never writes the password back", async () => {
    const { terminal, output, rawModes, written } = fakeTerminal(["s3cret-pass", "x\u007fword\r", "s3cret-password\r"]);
    // The first prompt reads "s3cret-pass" + "x", backspace, "word" = "s3cret-password".
    const typed = readPassword(terminal, output);
    await expect(typed).resolves.toBe("s3cret-password");
    expect(rawModes).toEqual([true, false, true, false]);
    expect(written()).toContain("Password for the new admin: ");
    expect(written()).not.toContain("s3cret");
  });

  it("refuses two different passwords at the terminal", async () => {
    const { terminal, output } = fakeTerminal(["first-password\r", "other-password\r"]);
    await expect(readPassword(terminal, output)).rejects.toThrow(/The two passwords differ/);
  });
});

describe("npm run admin:create as a command", () => {
  const run = (args: string[], stdin: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn("node_modules/.bin/tsx", ["src/server/cli/admin-create.ts", ...args], {
        env: { ...process.env, DATABASE_URL: t.databaseUrl, LOG_LEVEL: "silent" },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(stdin);
    });

  it("creates an admin with the password piped on stdin", async () => {
    const account = newAccount();
    const created = await run(["--username", account.username, "--email", account.email], `${account.password}\n`);
    expect(created).toMatchObject({ code: 0 });
    const [outcome, ...next] = created.stdout.trim().split("\n");
    expect(outcome).toBe(`Created admin ${account.username} (${account.email}). They can log in now.`);
    // Then how to set up two-step sign-in.
    expect(next.join("\n")).toContain(
      'open My Account (http://localhost:3000/profile) and choose "Set up two-step sign-in"',
    );
    expect(next.join("\n")).toContain("ADMIN_2FA=optional");
    expect((await login(account.username, account.password)).json()).toMatchObject({ isAdmin: "true" });
  }, 30_000);

  it("promotes with --promote, asking no password, and exits 1 when the e-mail is another user's", async () => {
    const one = await registered();
    const two = await registered();
    const refused = await run(["--promote", "--username", one.username, "--email", two.email], "");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("nothing was changed");
    expect(await isAdmin(one.username)).toBe(false);

    const promoted = await run(["--promote", "--username", one.username, "--email", one.email], "");
    expect(promoted).toMatchObject({ code: 0 });
    expect(promoted.stdout).toContain(`Promoted ${one.username}`);
    expect(await isAdmin(one.username)).toBe(true);
  }, 30_000);

  it("exits 1 on --password, on an empty stdin and on bad input, before touching the database", async () => {
    const account = newAccount();
    const withPassword = await run(
      ["--username", account.username, "--email", account.email, "--password", account.password],
      "",
    );
    expect(withPassword.code).toBe(1);
    expect(withPassword.stderr).toContain("--password is not accepted");
    expect(withPassword.stderr).toContain("standard input");

    const noPassword = await run(["--username", account.username, "--email", account.email], "");
    expect(noPassword.code).toBe(1);
    expect(noPassword.stderr).toContain("No password on standard input");

    const bad = await run(["--username", "x y", "--email", "bad"], "whatever-password\n");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("email must be a valid email address");
    expect(await isAdmin(account.username)).toBeUndefined();
  }, 30_000);
});
