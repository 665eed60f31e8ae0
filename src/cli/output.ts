import { styleText } from "node:util";

type Format = Parameters<typeof styleText>[0];

/** Colour only for a TTY, and only when NO_COLOR is unset. */
export function colorEnabled(
  stream: { isTTY?: boolean } = process.stdout,
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  return stream.isTTY === true && env.NO_COLOR === undefined;
}

/** Styles text for a stream that may or may not take colour. */
export type Paint = (format: Format, text: string) => string;

export function painter(enabled: boolean): Paint {
  return enabled ? (format, text) => styleText(format, text, { validateStream: false }) : (_format, text) => text;
}

/** The colour a run status is shown in. */
export function statusFormat(status: string): Format {
  switch (status) {
    case "completed":
      return "green";
    case "failed":
      return "red";
    case "cancelled":
    case "paused":
      return "yellow";
    case "running":
    case "compiling":
      return "cyan";
    case "waiting":
      return "blue";
    default:
      return "dim";
  }
}

/** A table cell: plain text, optionally styled after padding (so widths ignore escape codes). */
export type Cell = string | { readonly text: string; readonly format: Format };

/** Left-aligned columns separated by two spaces; the header row is bold. Trailing spaces are trimmed. */
export function table(headers: readonly string[], rows: readonly (readonly Cell[])[], paint: Paint): string {
  const text = (cell: Cell | undefined) => (cell === undefined ? "" : typeof cell === "string" ? cell : cell.text);
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => text(row[i]).length)));
  const line = (cells: readonly Cell[], head: boolean) =>
    cells
      .map((cell, i) => {
        const plain = text(cell);
        const padded = i === cells.length - 1 ? plain : plain.padEnd(widths[i] ?? 0);
        if (head) return paint("bold", padded);
        return typeof cell === "string" ? padded : padded.replace(plain, paint(cell.format, plain));
      })
      .join("  ")
      .trimEnd();
  return [line(headers, true), ...rows.map((row) => line(row, false))].join("\n");
}

/** Label/value lines, values aligned; a multi-line value continues under its first line. */
export function keyValues(rows: readonly (readonly [string, string | undefined])[], paint: Paint): string {
  const shown = rows.filter((row): row is readonly [string, string] => row[1] !== undefined);
  const width = Math.max(0, ...shown.map(([label]) => label.length));
  return shown
    .map(([label, value]) => {
      const [first, ...rest] = value.split("\n");
      const pad = " ".repeat(width + 2);
      return [`${paint("bold", label.padEnd(width))}  ${first ?? ""}`.trimEnd(), ...rest.map((line) => `${pad}${line}`.trimEnd())].join(
        "\n",
      );
    })
    .join("\n");
}

/** An epoch-milliseconds time as ISO 8601, or "-" when absent. */
export function isoTime(ms: unknown): string {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "-";
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? "-" : date.toISOString();
}

/** A duration for humans: 850ms, 12.3s, 4m 05s, 2h 03m. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "-";
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(seconds / 3600)}h ${String(Math.floor((seconds % 3600) / 60)).padStart(2, "0")}m`;
}

/** Compact JSON, cut to `max` characters with an ellipsis. */
export function shortJson(value: unknown, max = 80): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Writes to stdout, one line. */
export function print(text: string): void {
  process.stdout.write(`${text}\n`);
}
