/**
 * workerd's resident memory under a bench `wrangler dev`, read from /proc (Linux only): the
 * VmRSS of every `workerd` process in wrangler's process group (wrangler spawns one). Null where
 * /proc cannot be read.
 */
import { readdir, readFile } from "node:fs/promises";

export async function workerdRssMiB(processGroup: number | null): Promise<number | null> {
  if (processGroup === null) return null;
  let pids: string[];
  try {
    pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  let kib = 0;
  let found = false;
  for (const pid of pids) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8");
      // "pid (comm) state ppid pgrp …": comm may hold spaces, so split after its closing parenthesis.
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (comm !== "workerd" || pgrp !== processGroup) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, "utf8"));
      if (rss) {
        kib += Number(rss[1]);
        found = true;
      }
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return found ? kib / 1024 : null;
}
