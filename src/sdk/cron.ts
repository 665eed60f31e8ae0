/**
 * Cron expressions in the dialect of Cloudflare Cron Triggers: five fields (minute, hour, day of
 * month, month, day of week), UTC, with the Quartz-like extensions Cloudflare documents — `L` and
 * `W` in the day of month, `L` and `#` in the day of week — and 1–7 = SUN–SAT.
 *
 * Only checked, never evaluated: Cloudflare decides when a tick fires and hands the Worker the
 * expression string it was configured with, so a schedule matches a tick by its expression
 * ({@link cronKey}), not by computing times. That is also why no cron library is used here: the
 * common ones implement the Unix dialect (0 = Sunday, no `L`/`W`/`#` or other rules), which
 * would accept expressions Cloudflare refuses and refuse ones it accepts.
 */

type Field = {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
  /** Which of Cloudflare's extensions the field takes. */
  readonly extensions: "none" | "day-of-month" | "day-of-week";
};

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const WEEKDAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

const FIELDS: readonly Field[] = [
  { name: "minute", min: 0, max: 59, extensions: "none" },
  { name: "hour", min: 0, max: 23, extensions: "none" },
  { name: "day of month", min: 1, max: 31, extensions: "day-of-month" },
  { name: "month", min: 1, max: 12, names: MONTHS, extensions: "none" },
  { name: "day of week", min: 1, max: 7, names: WEEKDAYS, extensions: "day-of-week" },
];

/**
 * The form two spellings of one expression share: fields separated by one space, upper case
 * (`0 17 * * sun` and `0  17 * * SUN` are one schedule). A tick's `controller.cron` is compared in
 * this form.
 */
export function cronKey(expression: string): string {
  return expression.trim().split(/\s+/).join(" ").toUpperCase();
}

/**
 * Why `expression` is not a cron expression Cloudflare accepts, or `null` when it is one.
 *
 * @example
 * cronProblem("*\/15 9-17 * * MON-FRI") // null
 * cronProblem("0 24 * * *")            // 'hour: 24 is out of range 0-23'
 */
export function cronProblem(expression: unknown): string | null {
  if (typeof expression !== "string" || expression.trim() === "") return "a cron expression is a non-empty string";
  const parts = cronKey(expression).split(" ");
  if (parts.length !== FIELDS.length)
    return `a cron expression has 5 fields (minute hour day-of-month month day-of-week), not ${parts.length}`;
  for (const [i, field] of FIELDS.entries()) {
    const part = parts[i] as string;
    for (const item of part.split(",")) {
      const problem = itemProblem(item, field);
      if (problem) return `${field.name}: ${problem}`;
    }
  }
  return null;
}

function itemProblem(item: string, field: Field): string | null {
  if (item === "") return "an empty list item";
  const special = extensionProblem(item, field);
  if (special !== undefined) return special;
  const [range, step, ...more] = item.split("/");
  if (more.length > 0) return `"${item}" has more than one "/"`;
  if (step !== undefined) {
    const n = number(step);
    if (n === null || n < 1 || n > field.max) return `the step "${step}" is not a number from 1 to ${field.max}`;
  }
  if (range === "*") return null;
  const [from, to, ...rest] = (range as string).split("-");
  if (rest.length > 0) return `"${range}" is not a value or a range a-b`;
  const start = value(from as string, field);
  if (start === null) return outOfRange(from as string, field);
  if (to === undefined) return null;
  const end = value(to, field);
  if (end === null) return outOfRange(to, field);
  return start <= end ? null : `the range "${range}" runs backwards`;
}

/** `L`, `LW`, `<n>W` (day of month); `L`, `<d>L`, `<d>#<k>` (day of week). Undefined: not one of them. */
function extensionProblem(item: string, field: Field): string | null | undefined {
  // Names go first: JUL and WED hold an L and a W that are no extension.
  if (!/[LW#]/.test(item.replace(/[A-Z]{3}/g, (name) => (field.names?.includes(name) ? "" : name)))) return undefined;
  if (field.extensions === "day-of-month") {
    if (item === "L" || item === "LW") return null;
    const weekday = /^(\d+)W$/.exec(item);
    if (weekday) return value(weekday[1] as string, field) === null ? outOfRange(weekday[1] as string, field) : null;
    return `"${item}" is not L, LW or <day>W`;
  }
  if (field.extensions === "day-of-week") {
    if (item === "L") return null;
    const last = /^([0-9A-Z]+)L$/.exec(item);
    if (last) return value(last[1] as string, field) === null ? outOfRange(last[1] as string, field) : null;
    const nth = /^([0-9A-Z]+)#(\d+)$/.exec(item);
    if (nth) {
      if (value(nth[1] as string, field) === null) return outOfRange(nth[1] as string, field);
      const k = number(nth[2] as string);
      return k !== null && k >= 1 && k <= 5 ? null : `"${item}": the week of the month after # is 1 to 5`;
    }
    return `"${item}" is not L, <day>L or <day>#<week>`;
  }
  return `"${item}": L, W and # belong to the day-of-month and day-of-week fields`;
}

function value(text: string, field: Field): number | null {
  const named = field.names?.indexOf(text) ?? -1;
  if (named >= 0) return field.min + named;
  const n = number(text);
  return n !== null && n >= field.min && n <= field.max ? n : null;
}

function number(text: string): number | null {
  return /^\d{1,2}$/.test(text) ? Number(text) : null;
}

function outOfRange(text: string, field: Field): string {
  const names = field.names ? ` or ${field.names[0]}-${field.names.at(-1)}` : "";
  return `${text === "" ? "a missing value" : `"${text}"`} is out of range ${field.min}-${field.max}${names}`;
}
