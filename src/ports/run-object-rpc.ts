/**
 * @module What a run object answers over Durable Object RPC. RPC carries a thrown error as a plain
 * `Error` with a message (no class, no code), so the object answers its expected refusals as data:
 * the `{ ok: false, code, message }` unions of run-handle.ts. Only the {@link RunHandle}
 * implementations read these (src/adapters/cloudflare/run-client.ts); they throw the named errors
 * of run-refusal.ts, which is what every other caller sees.
 */
import type {
  ChildEndedRequest,
  ChildEndedResult,
  DecisionRequest,
  DecisionResult,
  EndRunRequest,
  EndRunResult,
  PauseRequest,
  PauseResult,
  PurgeResult,
  RunHandle,
  SignalRequest,
  SignalResult,
  TriggerRequest,
  TriggerResult,
} from "./run-handle.ts";

/** The methods whose answer on the wire is a union with the refusals, and on the port the accepted part. */
type Refusable = "pause" | "resume" | "trigger" | "decideApproval" | "sendSignal" | "end" | "childEnded" | "purge";

/** The run object's RPC surface: {@link RunHandle}, with the refusals as data. */
export interface RunObjectRpc extends Omit<RunHandle, Refusable> {
  pause(request: PauseRequest): Promise<PauseResult>;
  resume(request: PauseRequest): Promise<PauseResult>;
  trigger(request: TriggerRequest): Promise<TriggerResult>;
  decideApproval(request: DecisionRequest): Promise<DecisionResult>;
  sendSignal(request: SignalRequest): Promise<SignalResult>;
  end(request: EndRunRequest): Promise<EndRunResult>;
  childEnded(request: ChildEndedRequest): Promise<ChildEndedResult>;
  purge(deletedAt: number): Promise<PurgeResult>;
}
