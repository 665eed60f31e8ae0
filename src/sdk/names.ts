/** How the ids and names a definition declares are spelled (checked by `defineWorkflow` and `tool`). */
export const WORKFLOW_ID_PATTERN = /^[a-z0-9](?:[a-z0-9._-]{0,126}[a-z0-9])?$/;
export const SLOT_ID_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,62}[A-Za-z0-9])?$/;
export const TOOL_ID_PATTERN = /^[A-Za-z][A-Za-z0-9._-]{0,127}$/;
export const SKILL_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
export const SECRET_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;
/** A tenant's name (tokens, run ownership, a schedule's `tenant`). */
export const TENANT_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
/** A signal's name (`defineWorkflow({ signals })`, `wait.signal`, `POST /v1/runs/:id/signals`). */
export const SIGNAL_NAME_PATTERN = /^[a-z][a-z0-9_.-]{0,63}$/;
