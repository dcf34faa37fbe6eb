// Rows of the results table. A benchmark collects rows and calls `emit`: under run.mjs they go to
// the file it names (BENCH_ROWS_FILE); run alone, the benchmark prints its own table.
import { appendFileSync } from "node:fs";

/**
 * One line of the table.
 * status: "pass" | "fail" (a bar is missed) | "info" (printed, no bar) | "n/a" (could not be measured).
 */
export function row({ bench, name, measured, baseline = "", ratio = null, bar = "", status, note = "" }) {
  return { bench, name, measured: String(measured), baseline: String(baseline), ratio, bar, status, note };
}

/** pass/fail from a condition. */
export const verdict = (ok) => (ok ? "pass" : "fail");

export const fmt = {
  rps: (value) => `${Math.round(value).toLocaleString("en-US")}/s`,
  ms: (value) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`,
  mb: (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`,
  kb: (bytes) => `${(bytes / 1024).toFixed(1)} KB`,
  s: (ms) => `${(ms / 1000).toFixed(2)} s`,
  ratio: (value) => (value === null || value === undefined || !Number.isFinite(value) ? "" : value.toFixed(2)),
};

/** Hands the rows to run.mjs (or prints them); a missed bar makes the benchmark exit non-zero. */
export function emit(rows) {
  if (rows.some((entry) => entry.status === "fail")) process.exitCode = 1;
  const file = process.env.BENCH_ROWS_FILE;
  if (file) {
    for (const entry of rows) appendFileSync(file, `${JSON.stringify(entry)}\n`);
  } else {
    console.log(`\n${formatTable(rows)}\n`);
  }
}

const STATUS_TEXT = { pass: "PASS", fail: "FAIL", info: "info", "n/a": "n/a" };

/** A plain-text table for the terminal. */
export function formatTable(rows) {
  const header = ["benchmark", "measured", "baseline", "ratio", "bar", "result"];
  const lines = rows.map((entry) => [
    entry.name,
    entry.measured,
    entry.baseline,
    fmt.ratio(entry.ratio),
    entry.bar,
    STATUS_TEXT[entry.status] ?? entry.status,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const render = (cells) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]))
      .join("  ")
      .trimEnd();
  const out = [render(header), render(widths.map((width) => "-".repeat(width)))];
  let previous = null;
  for (const [index, line] of lines.entries()) {
    const bench = rows[index].bench;
    if (previous !== null && bench !== previous) out.push("");
    previous = bench;
    out.push(render(line));
  }
  const notes = rows.filter((entry) => entry.note);
  if (notes.length > 0) {
    out.push("", "notes:");
    for (const entry of notes) out.push(`  - ${entry.name}: ${entry.note}`);
  }
  return out.join("\n");
}

/** The same table in Markdown, for bench/RESULTS.md. */
export function markdownTable(rows) {
  const cell = (text) => String(text).replaceAll("|", "\\|");
  const out = ["| benchmark | measured | baseline | ratio | bar | result |", "|---|---:|---:|---:|---|---|"];
  for (const entry of rows) {
    out.push(
      `| ${cell(entry.name)} | ${cell(entry.measured)} | ${cell(entry.baseline)} | ${fmt.ratio(entry.ratio)} | ${cell(entry.bar)} | ${STATUS_TEXT[entry.status] ?? entry.status} |`,
    );
  }
  return out.join("\n");
}
