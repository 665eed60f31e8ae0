/**
 * The /v1 API's shapes, named. Every one comes from the generated document types
 * (openapi.generated.ts, built from the API's own zod schemas), so the client cannot drift from
 * the server; the event union comes from the engine's one list (src/ports/run-events.ts).
 */
import type { RunEventType, RunEvent as RunEventUnion } from "../ports/run-events.ts";
import type { components, operations } from "./openapi.generated.ts";

type Schemas = components["schemas"];

export type Run = Schemas["Run"];
export type RunResponse = Schemas["RunResponse"];
export type RunLinks = Schemas["RunLinks"];
export type RunSummary = Schemas["RunSummary"];
export type ChildRun = Schemas["ChildRun"];
export type Usage = Schemas["Usage"];
export type Approval = Schemas["Approval"];
export type OccurrenceResponse = Schemas["OccurrenceResponse"];
export type Workflow = Schemas["Workflow"];
export type WorkflowVersion = Schemas["WorkflowVersion"];
export type Definition = Schemas["Definition"];
export type Finding = Schemas["Finding"];
export type Token = Schemas["Token"];
export type SecretEntry = Schemas["SecretEntry"];
/** The body of every error answer: `{ error: { code, message, findings? } }`. */
export type ErrorResponse = Schemas["Error"];

/** An operation of the document, by its `operationId` (docs/api.md lists them). */
export type OperationId = keyof operations;

type JsonOf<R> = R extends { content: { "application/json": infer B } } ? B : never;
type Responses<K extends OperationId> = operations[K]["responses"];
type Success<K extends OperationId> = Extract<keyof Responses<K>, 200 | 201 | 202>;

/** What an operation answers on success (the union of its 2xx bodies). */
export type ResponseOf<K extends OperationId> = { [S in Success<K>]: JsonOf<Responses<K>[S]> }[Success<K>];
/** An operation's JSON request body. */
export type BodyOf<K extends OperationId> = operations[K] extends { requestBody: { content: { "application/json": infer B } } } ? B : never;
/** An operation's query parameters. */
export type QueryOf<K extends OperationId> = NonNullable<operations[K]["parameters"]["query"]>;

export type DeletedRun = Schemas["DeletedRun"];
export type DeleteRunResponse = ResponseOf<"deleteRun">;
export type BulkJob = Schemas["BulkJob"];
export type BulkFilter = Schemas["BulkFilter"];
export type BulkActionRequest = BodyOf<"startBulkAction">;
export type BulkJobResponse = ResponseOf<"getBulkAction">;
export type RunsPage = ResponseOf<"listRuns">;
export type ListRunsQuery = QueryOf<"listRuns">;
export type EventsPage = ResponseOf<"listRunEvents">;
export type ListEventsQuery = QueryOf<"listRunEvents">;
export type ApprovalDecision = BodyOf<"decideApproval">;
export type DecisionResponse = ResponseOf<"decideApproval">;
export type CreateTokenBody = BodyOf<"createToken">;
export type CreatedToken = ResponseOf<"createToken">;
export type LwirValidation = ResponseOf<"validateLwir">;
export type Signal = Schemas["Signal"];
export type SendSignalResponse = ResponseOf<"sendSignal">;
export type SignalsList = ResponseOf<"listSignals">;
export type ForkPlan = Schemas["ForkPlan"];
export type ForkRequest = BodyOf<"forkRun">;
export type RestartResponse = ResponseOf<"restartRun">;
export type ForkResponse = ResponseOf<"forkRun">;
export type RunComparison = Schemas["RunComparison"];

/**
 * One event of a run's log, typed by `type` (narrow on it: `if (event.type === "RunCompleted")
 * event.payload.output`). A newer server may send types this client does not know yet: they
 * arrive as they are, so keep a default branch.
 */
export type RunEvent = RunEventUnion;
export type { RunEventType };
