/**
 * The flow-control part of `npm run demo` (docs/flow-control.md): a burst of support.reply-draft
 * runs for one customer queues behind that customer's limit of 2, another customer's run is not
 * held up, and `little queues` shows the key's counts; then every run completes.
 */
import { spawnSync } from "node:child_process";

type Started = { run: { runId: string; status: string; waitReason?: string; queue?: { key: string; position: number | null } } };

export async function demoFlowControl(url: string, token: string): Promise<void> {
  console.log("\n— 4. Flow control: 5 drafts for customer c-42 (concurrency 2 per customer) and 1 for c-7\n");
  const start = async (customerId: string, message: string): Promise<Started> => {
    const res = await fetch(`${url}/v1/workflows/support.reply-draft/runs`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ input: { customerId, message } }),
    });
    if (!res.ok) throw new Error(`start of support.reply-draft: ${res.status} ${await res.text()}`);
    return (await res.json()) as Started;
  };
  // At once, as a burst arrives: the first two of c-42 take its slots, the rest queue behind them.
  const runs = await Promise.all([
    ...[1, 2, 3, 4, 5].map((i) => start("c-42", `Message ${i}: where is my order?`)),
    start("c-7", "Can I change my plan?"),
  ]);
  for (const { run } of runs) {
    const queued = run.queue ? ` (${run.waitReason}: key ${run.queue.key}, position ${run.queue.position})` : "";
    console.log(`run ${run.runId}: ${run.status}${queued}`);
  }
  spawnSync(process.execPath, ["src/cli/little.ts", "queues", "support.reply-draft"], {
    stdio: "inherit",
    env: { ...process.env, LITTLE_URL: url, LITTLE_TOKEN: token },
  });
  const ended = await Promise.all(
    runs.map(async ({ run }) => {
      for (;;) {
        const res = await fetch(`${url}/v1/runs/${run.runId}`, { headers: { authorization: `Bearer ${token}` } });
        const body = (await res.json()) as Started;
        if (["completed", "failed", "cancelled"].includes(body.run.status)) return `${run.runId}: ${body.run.status}`;
        await new Promise((r) => setTimeout(r, 250));
      }
    }),
  );
  console.log(`all ended:\n  ${ended.join("\n  ")}`);
}
