import { DurableObject } from "cloudflare:workers";
import { type BulkJobState, type BulkJobStore, newBulkJob, stepBulkJob, viewBulkJob } from "../src/engine/bulk/bulk-job.ts";
import type { BulkJobHandle, BulkJobSpec, BulkJobView } from "../src/ports/bulk-jobs.ts";
import { bulkJobWiring } from "../src/wiring.ts";

const JOB_KEY = "job";

/**
 * One bulk job (docs/runs.md, "Bulk actions"): a Durable Object per (tenant, job id) whose alarm
 * walks the run index a page per alarm (src/engine/bulk/bulk-job.ts). Glue only: the job's state
 * is one storage key, written and synced before each act, so a crash or eviction resumes from the
 * alarm where the walk stopped.
 */
export class BulkJobObject extends DurableObject<Env> implements BulkJobHandle {
  private readonly store: BulkJobStore = {
    read: async () => (await this.ctx.storage.get<BulkJobState>(JOB_KEY)) ?? null,
    write: async (state) => {
      await this.ctx.storage.put(JOB_KEY, state);
      await this.ctx.storage.sync();
    },
  };

  async create(spec: BulkJobSpec): Promise<BulkJobView> {
    const existing = await this.store.read();
    if (existing) return viewBulkJob(existing);
    const state = newBulkJob(spec);
    await this.store.write(state);
    await this.ctx.storage.setAlarm(Date.now());
    return viewBulkJob(state);
  }

  async status(): Promise<BulkJobView | null> {
    const state = await this.store.read();
    return state ? viewBulkJob(state) : null;
  }

  override async alarm(): Promise<void> {
    // Armed again first: a crash inside the step leaves the alarm to resume it.
    await this.ctx.storage.setAlarm(Date.now() + 30_000);
    const { ports, pageSize } = bulkJobWiring(this.env, this.ctx);
    const more = await stepBulkJob(ports, this.store, pageSize);
    if (more === "more") await this.ctx.storage.setAlarm(Date.now());
    else await this.ctx.storage.deleteAlarm();
  }
}
