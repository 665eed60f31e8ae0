/** Usage text: kept apart from the commands so `little` loads only the command it runs. */

export const RUN_USAGE =
  "run <workflow> --input <json|@file> [--run-id <id>] [--idempotency-key <k>] [--tag <key=value>]… [--wait [seconds]] [--json]\n  run --lwir <lwir.json> --input <json|@file> [--run-id <id>] [--wait [seconds]] [--json]";
export const RUNS_USAGE =
  "runs [--workflow <id>] [--status <status>] [--wait-reason <reason>] [--tag <key:value>]… [--limit <n>] [--cursor <c>] [--json]";
export const EVENTS_USAGE = "events <run-id> [--follow [--deltas]] [--type <glob>] [--after <seq>] [--json]";
export const VERSIONS_USAGE = "versions <version-id> [--json]";
export const CANCEL_USAGE = "cancel <run-id> [--json]";
export const RESTART_USAGE = "restart <run-id> [--from <step>] [--idempotency-key <k>] [--wait <seconds>] [--json]";
export const FORK_USAGE =
  "fork <run-id> [--input <json|@file>] [--model <slot>=<provider:model>]… [--step <id>=<json|@with.json>]… [--lwir @file] [--dry-run] [--wait <seconds>] [--json]";
export const COMPARE_USAGE = "compare <run-id> <other-run-id> [--json]";
export const DELETE_USAGE = "delete <run-id> [--cancel] [--json]";
export const BULK_USAGE = `bulk cancel|delete [--workflow <id>] [--status <status>] [--wait-reason <reason>] [--created-after <date>] [--created-before <date>] [--dry-run] [--json]
  bulk status <job-id> [--json]`;
export const PAUSE_USAGE = "pause <run-id> [--json]";
export const RESUME_USAGE = "resume <run-id> [--json]";
export const TRIGGER_USAGE = "trigger <run-id> --input <json|@file> [--idempotency-key <k>] [--wait <seconds>] [--json]";
export const SECTIONS_USAGE = "sections <workflow> [--stale] [--json]";
export const SUPERSEDE_USAGE = "supersede <run-id> --into <run-id> [--json]";
export const QUEUES_USAGE = "queues <workflow> [--json]";
export const APPROVALS_USAGE = "approvals <run-id> [--json]";
export const APPROVE_USAGE = "approve <run-id> <approval-id> [--deny] [--reason <text>] [--json]";
export const SIGNAL_USAGE = "signal <run-id> <name> [--payload <json|@file>] [--id <id>] [--json]";
export const INIT_USAGE = "init <dir> [--name <worker-name>] [--package <spec|tarball>]";
export const DEV_USAGE = "dev [wrangler dev options, e.g. --port 8801]";
export const DEPLOY_USAGE =
  "deploy [--sandbox container|isolate] [--secret <NAME>]… [--dry-run] [-c wrangler.jsonc] [--json] [--url <worker URL>]";
export const TOKEN_USAGE = `token create --tenant <name> [--label <l>] [--scopes <s,…>] [--expires-in <30d|12h|90m|3600>] [--admin-token <t>] [--json]
  token list [--tenant <name> [--admin-token <t>]] [--json]
  token revoke <tok_id> [--admin-token <t>] [--json]`;

/** `little help`. */
export const USAGE = `usage: little <command> [args]

local commands (JSON output):
  validate <lwir.json|->   validate an LWIR document; prints {"valid","findings"}
                           exit 0 valid, 1 invalid, 2 unreadable input
    [--workflow <id>]      also bind it to that workflow (what the server checks), from a
    [--entry <module>]…    running Worker (--url, LITTLE_URL, .dev.vars) or the workflows and
                           tools the --entry modules export (tools by export name)
  hash <file.json|->       print the canonical digest (RFC 8785, sha256) and the version id

project commands:
  ${INIT_USAGE}
                           scaffold a Worker project on little-workflow in a new or empty directory
                           (one workflow, one tool, a test, wrangler.jsonc, .dev.vars)
  ${DEV_USAGE}
                           apply the D1 migrations locally (one line each), then wrangler dev
  ${DEPLOY_USAGE}
                           create or find the D1 database, R2 bucket and queues, check the secrets,
                           apply the D1 migrations remotely and wrangler deploy (default sandbox:
                           container, which needs Docker; isolate needs Worker Loader), then smoke-check
                           the container sandbox through the deployed Worker. docs/deploy.md

API commands (human output; --json for machines):
  ${RUN_USAGE}
                           start a run; --input takes JSON, @file or @- (stdin); --wait alone waits 60 s;
                           --lwir runs that LWIR document as is (no planner), for the workflow it names
                           --tag key=value (repeatable, at most 16) tags the run
                           exit 1 when the run failed or was cancelled
  ${RUNS_USAGE}
                           list runs, newest first; --wait-reason approval|sleep|trigger|signal|child|concurrency|throttle
                           lists the runs waiting for that (queued runs with their key and position);
                           --tag key:value (repeatable, all must match) lists the runs started with those tags
  ${EVENTS_USAGE}
                           print a run's events; --follow streams them until the run ends,
                           --deltas also prints the models' output as it is written
                           --type takes comma-separated types, each may end in * (harness.*)
  ${VERSIONS_USAGE}
                           show a workflow version: hash, locks and LWIR steps
  ${CANCEL_USAGE}
                           cancel a run
  ${RESTART_USAGE}
                           restart an ended run from a step (default its first failed step): the steps
                           before it reuse their recorded results, it and everything after run afresh
  ${FORK_USAGE}
                           fork an ended run with another input, model or step \`with\`; steps whose
                           content key is unchanged reuse their results; --dry-run prints the plan only
  ${COMPARE_USAGE}
                           two runs step by step: reused or re-run, output diff, duration, tokens
  ${DELETE_USAGE}
                           delete a run and all its data (scope runs:delete); --cancel cancels a live
                           run first; afterwards the run answers 410 run_deleted
  ${BULK_USAGE}
                           cancel or delete every run a filter matches (a job, resumable); --dry-run
                           only counts; dates are ISO-8601 or epoch ms; status shows its progress
  ${PAUSE_USAGE}
                           pause a run: no new step or model call starts (calls in flight finish)
  ${RESUME_USAGE}
                           resume a paused run
  ${TRIGGER_USAGE}
                           queue an occurrence of a section run (onTrigger)
  ${SECTIONS_USAGE}
                           a section workflow's unfinished runs; --stale: only those whose definition
                           is no longer the live one (after a redeploy)
  ${SUPERSEDE_USAGE}
                           end a waiting section (section_superseded) and queue its pending
                           occurrences in another section, under the live definition
  ${QUEUES_USAGE}
                           a workflow's flow-control keys (concurrency, throttle) with their running
                           and queued runs
  ${APPROVALS_USAGE}
                           list a run's tool calls held for approval
  ${APPROVE_USAGE}
                           approve (or deny) a held tool call, bound to the arguments it shows
  ${SIGNAL_USAGE}
                           send a signal to a run (for its wait.signal steps); --payload takes JSON,
                           @file or @- (default {}); --id makes a resend idempotent
  ${TOKEN_USAGE}
                           mint an API token for a tenant (admin token: --admin-token or LITTLE_ADMIN_TOKEN);
                           scopes runs:read, runs:write, runs:delete, approve, admin (default: all); list shows a
                           tenant's tokens (your token, admin scope; or the admin token with --tenant),
                           revoke ends one at once
  help                     show this text
  --version                print the package version

API options:
  --url <url>              server base URL (env LITTLE_URL, default http://localhost:8787)
  --token <token>          bearer token (env LITTLE_TOKEN)
  --json                   machine output; errors as {"error":{...}} on stderr

exit codes: 0 ok, 1 invalid / run failed or cancelled, 2 usage or input error, 3 server or network error
`;
