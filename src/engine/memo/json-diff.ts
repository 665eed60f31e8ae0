/** One difference between two JSON values, at a JSONPath (`$.summary`, `$.items[2]`). */
export type JsonChange = { readonly path: string; readonly a?: unknown; readonly b?: unknown };

/** Most changes a diff lists; the rest are counted, not listed. */
const MAX_CHANGES = 100;

/**
 * The leaves where two JSON values differ: a key only one side has is listed with that side's
 * value; an array of another length is compared index by index. `omitted` counts what was left out.
 */
export function jsonDiff(a: unknown, b: unknown): { changes: JsonChange[]; omitted: number } {
  const changes: JsonChange[] = [];
  let omitted = 0;
  const add = (change: JsonChange) => {
    if (changes.length < MAX_CHANGES) changes.push(change);
    else omitted += 1;
  };
  const walk = (x: unknown, y: unknown, path: string) => {
    if (Array.isArray(x) && Array.isArray(y)) {
      for (let i = 0; i < Math.max(x.length, y.length); i++) walkSide(x, y, i, `${path}[${i}]`);
      return;
    }
    if (isRecord(x) && isRecord(y)) {
      for (const key of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) walkSide(x, y, key, `${path}.${key}`);
      return;
    }
    if (JSON.stringify(x) !== JSON.stringify(y)) add({ path, a: x, b: y });
  };
  const walkSide = (x: object, y: object, key: string | number, path: string) => {
    const inX = Object.hasOwn(x, key);
    const inY = Object.hasOwn(y, key);
    const xv = (x as Record<string, unknown>)[key];
    const yv = (y as Record<string, unknown>)[key];
    if (inX && inY) walk(xv, yv, path);
    else if (inX) add({ path, a: xv });
    else add({ path, b: yv });
  };
  walk(a, b, "$");
  return { changes, omitted };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
