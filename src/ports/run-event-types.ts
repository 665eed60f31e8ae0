import { RUN_EVENT_PAYLOAD_SCHEMAS } from "./events/run-event-schema.ts";
import type { RunEventType } from "./run-events.ts";

/** Every event type of the union, at run time (for validating `?type=` filters): the keys of its one schema. */
export const RUN_EVENT_TYPES: readonly RunEventType[] = Object.keys(RUN_EVENT_PAYLOAD_SCHEMAS) as RunEventType[];
