import { openai } from "@ai-sdk/openai";
import { defineWorkflow, model } from "little-workflow";
import { z } from "zod";

export const TriageInput = z.object({ ticketId: z.string(), message: z.string() });
export const TriageOutput = z.object({ summary: z.string(), priority: z.enum(["low", "normal", "urgent"]) });

/**
 * One workflow: for each run a planner model compiles it into a plan (LWIR), which the run's
 * Durable Object executes step by step. `schedule` starts a run every weekday at 08:00 UTC (the
 * same expression is listed under `triggers.crons` in wrangler.jsonc).
 */
export const triageTicket = defineWorkflow({
  id: "support.triage-ticket",
  description: "Summarize a support ticket and decide how urgently a person should answer it.",
  input: TriageInput,
  output: TriageOutput,
  models: [model(openai("gpt-4o-mini"), { description: "Fast model for short structured outputs." })],
  planner: { model: openai("gpt-5"), system: "You design short support-triage workflows." },
  globalTools: ["lookupCustomer"],
  schedule: { cron: "0 8 * * MON-FRI", input: { ticketId: "daily-check", message: "Daily check: is triage working?" } },
});
