/**
 * workerd's resident memory under a bench `wrangler dev`, read from /proc (Linux only), summed over
 * every `workerd` process in wrangler's process group (wrangler spawns one): `rss` is VmRSS, `anon`
 * its anonymous part (RssAnon: the JS heaps and malloc, what an object holding a log in memory
 * grows), without the file-backed pages of mapped files (SQLite's, the binary's). Null where /proc
 * cannot be read.
 */
import { readdir, readFile } from "node:fs/promises";

export type WorkerdMemory = { readonly rss: number; readonly anon: number };

const kib = (status: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);

export async function workerdMemoryMiB(processGroup: number | null): Promise<WorkerdMemory | null> {
  if (processGroup === null) return null;
  let pids: string[];
  try {
    pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  let rss = 0;
  let anon = 0;
  let found = false;
  for (const pid of pids) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8");
      // "pid (comm) state ppid pgrp …": comm may hold spaces, so split after its closing parenthesis.
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (comm !== "workerd" || pgrp !== processGroup) continue;
      const status = await readFile(`/proc/${pid}/status`, "utf8");
      rss += kib(status, "VmRSS");
      anon += kib(status, "RssAnon");
      found = true;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return found && Number.isFinite(rss) && Number.isFinite(anon) ? { rss: rss / 1024, anon: anon / 1024 } : null;
}
