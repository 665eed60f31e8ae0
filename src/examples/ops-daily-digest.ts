import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import { defineWorkflow } from "../sdk/define-workflow.ts";
import { model } from "../sdk/model.ts";

/**
 * A scheduled workflow (the input to `defineWorkflow`, for variations): every weekday at 08:00
 * UTC the Worker's cron trigger starts a run with the static input below (wrangler.toml lists the
 * same expression under `[triggers] crons`). It can be started over HTTP or from a queue message
 * too, with any input of its schema.
 */
export const dailyDigestDefinition = {
  id: "ops.daily-digest",
  description: "Write the short digest a team reads first thing in the morning: a headline and what to look at first.",
  input: z.object({ team: z.string(), focus: z.string() }),
  output: z.object({ headline: z.string(), items: z.array(z.string()) }),
  models: [model(openai("gpt-4o-mini"), { description: "Fast model for short structured outputs." })],
  planner: { model: openai("gpt-5"), system: "You design short daily-digest workflows." },
  schedule: { cron: "0 8 * * MON-FRI", input: { team: "support", focus: "tickets opened overnight" } },
};

export const dailyDigest = defineWorkflow(dailyDigestDefinition);
