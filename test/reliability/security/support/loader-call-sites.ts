/** One Worker Loader call in the source: where it is and the text of its arguments. */
export type LoaderCall = { file: string; line: number; method: "get" | "load"; args: string };

/**
 * Every `<something loader>.get(…)` / `.load(…)` call in the given sources (receiver names
 * containing "loader", any case: `env.LOADER.get`, `this.options.loader.get`, `loader.load`), with
 * the full text of its argument list (parentheses balanced, strings and template literals skipped).
 */
export function loaderCalls(sources: Record<string, string>): LoaderCall[] {
  const calls: LoaderCall[] = [];
  const pattern = /\b([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*\.\s*(get|load)\s*\(/g;
  for (const [file, text] of Object.entries(sources)) {
    for (const match of text.matchAll(pattern)) {
      const receiver = match[1] as string;
      if (!/loader/i.test(receiver.split(".").at(-1) ?? "")) continue;
      const open = (match.index ?? 0) + match[0].length - 1;
      calls.push({
        file,
        line: text.slice(0, match.index).split("\n").length,
        method: match[2] as "get" | "load",
        args: balancedArguments(text, open),
      });
    }
  }
  return calls;
}

/** The text between the parenthesis at `open` and its match. */
function balancedArguments(text: string, open: number): string {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "(" || c === "{" || c === "[") depth++;
    else if (c === ")" || c === "}" || c === "]") {
      depth--;
      if (depth === 0) return text.slice(open + 1, i);
    }
  }
  throw new Error(`unbalanced call at ${open}`);
}
