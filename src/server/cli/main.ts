#!/usr/bin/env node
/**
 * snug-and-dry <command> [options]: the shop's one-off commands, in a release
 * (`node dist/server/cli/main.js <command>`, or `snug-and-dry <command>` where package.json's "bin"
 * is linked, as in the Docker image). In a clone, `npm run <command>` runs the same files with tsx.
 *
 * Each command runs as its own file would (`node dist/server/cli/backup.js ...`): in a child
 * process of this Node, with this terminal, its exit code passed on.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadEnvFile } from "../platform/config.js";
import { isEntryPoint } from "./entry-point.js";

export interface Command {
  /** The command's file in this folder, without its extension. */
  file: string;
  summary: string;
}

/** The commands, by the names `npm run` knows them by in a clone. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  backup: { file: "backup", summary: "write a backup of the shop's data to BACKUP_DIR (docs/backups.md)" },
  restore: { file: "restore", summary: "restore a backup into an empty database (docs/backups.md)" },
  "admin:create": { file: "admin-create", summary: "create an admin, or --promote an existing user" },
  retention: { file: "retention", summary: "anonymise orders past RETENTION_YEARS now (docs/legal.md)" },
  "seed:orders": { file: "seed-orders", summary: "add generated orders (a test or demo shop only)" },
  "seed:products": { file: "seed-products", summary: "add a generated catalogue (a test or demo shop only)" },
};

export const USAGE = `Usage: snug-and-dry <command> [options]
       node dist/server/cli/main.js <command> [options]     (in a release, from its folder)
       npm run <command> -- [options]                       (in a clone of the repository)

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(15)}${command.summary}`)
  .join("\n")}

"snug-and-dry <command> --help" shows a command's options. Every command says which database it
works on (the data directory, or DATABASE_URL's host and database, and the port) before it acts,
and one that would act on a data directory holding no shop refuses; only restore creates one.
Settings come from the environment and from .env in the working directory, as for the shop.`;

/** The command `name` stands for: its npm name, or its file's name (admin-create for admin:create). */
export function findCommand(name: string): Command | null {
  return COMMANDS[name] ?? Object.values(COMMANDS).find((command) => command.file === name) ?? null;
}

function runCommand(command: Command, args: string[]): void {
  const here = fileURLToPath(import.meta.url);
  // .js in a release; .ts when this file itself runs under tsx, whose loader the child inherits.
  const file = path.join(path.dirname(here), `${command.file}${path.extname(here)}`);
  const child = spawn(process.execPath, [...process.execArgv, file, ...args], { stdio: "inherit" });
  // Ctrl-C reaches the child from the terminal; a signal sent to this process alone is passed on.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("error", (error) => {
    console.error(`Could not run ${file}: ${error.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function main(argv: string[]): void {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(USAGE);
    if (name === undefined) process.exitCode = 1;
    return;
  }
  const command = findCommand(name);
  if (!command) {
    console.error(`No command "${name}".\n\n${USAGE}`);
    process.exitCode = 1;
    return;
  }
  // .env in the working directory, as the shop reads it (the real environment wins), for every command.
  loadEnvFile();
  runCommand(command, args);
}

if (isEntryPoint(import.meta.url)) main(process.argv.slice(2));
