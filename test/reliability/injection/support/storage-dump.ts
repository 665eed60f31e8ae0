import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { rawRunStub } from "../../../support/drive.ts";

/** Every row of every D1 table, as text by table (the approach of test/api/secrets.test.ts). */
export async function dumpD1Tables(): Promise<Record<string, string>> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ name: string }>();
  const out: Record<string, string> = {};
  for (const { name } of tables.results) out[name] = JSON.stringify((await env.DB.prepare(`SELECT * FROM "${name}"`).all()).results);
  return out;
}

/** Every row of every D1 table, as one text. */
export async function dumpD1(): Promise<string> {
  return Object.values(await dumpD1Tables()).join("\n");
}

/** Every row of every table in a run object's SQLite. */
export async function dumpRunObject(runId: string, tenant: string): Promise<string> {
  return runInDurableObject(rawRunStub(runId, tenant), (_instance, state) => {
    const tables = state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%'")
      .toArray();
    return tables.map(({ name }) => JSON.stringify(state.storage.sql.exec(`SELECT * FROM "${name}"`).toArray())).join("\n");
  });
}

/** Every object in the blob bucket (large outputs are stored there by digest). */
export async function dumpBlobs(): Promise<string> {
  const parts: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const listed = await env.BLOBS.list(cursor ? { cursor } : {});
    for (const object of listed.objects) parts.push((await (await env.BLOBS.get(object.key))?.text()) ?? "");
    if (!listed.truncated) break;
    cursor = listed.cursor;
  }
  return parts.join("\n");
}
