/**
 * One `npm pack` of this repository at a time. Its `prepack` rebuilds dist/ in place, and the
 * package and adoption tests run in parallel (the node project runs four files at once): two packs
 * at the same moment could tar a file the other is rewriting. The lock is a directory (mkdir is
 * atomic) in this checkout's test-output/, so another clone on the machine is not held up.
 */
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../../..");
const LOCK = join(ROOT, "test-output", ".npm-pack.lock");
/** A lock older than this was left by a killed run. */
const STALE_MS = 10 * 60_000;

/** Runs `pack` while holding the lock; waits (polling) while another test holds it. */
export async function withPackLock<T>(pack: () => Promise<T>): Promise<T> {
  mkdirSync(join(ROOT, "test-output"), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (isStale()) rmSync(LOCK, { recursive: true, force: true });
      else await new Promise((done) => setTimeout(done, 250));
    }
  }
  try {
    return await pack();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

function isStale(): boolean {
  try {
    return Date.now() - statSync(LOCK).mtimeMs > STALE_MS;
  } catch {
    return false;
  }
}
