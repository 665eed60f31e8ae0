/**
 * The inspector's stylesheet, served at /inspector/app.css. Every text colour is chosen against
 * its background for WCAG AA (4.5:1 or better; most pairs are above 7:1): dark text on light
 * status fills, and status is always written as text too, never told by colour alone.
 */
export const INSPECTOR_CSS = `
:root {
  --text: #111827; --muted: #4b5563; --bg: #ffffff; --panel: #f9fafb; --line: #d1d5db; --link: #1d4ed8; --focus: #1d4ed8;
  --pending-bg: #f3f4f6; --pending-fg: #374151; --pending-line: #6b7280;
  --scheduled-bg: #e0e7ff; --scheduled-fg: #312e81; --scheduled-line: #4f46e5;
  --running-bg: #dbeafe; --running-fg: #1e3a8a; --running-line: #1d4ed8;
  --retrying-bg: #fef3c7; --retrying-fg: #78350f; --retrying-line: #b45309;
  --succeeded-bg: #dcfce7; --succeeded-fg: #14532d; --succeeded-line: #15803d;
  --failed-bg: #fee2e2; --failed-fg: #7f1d1d; --failed-line: #b91c1c;
  --skipped-bg: #f9fafb; --skipped-fg: #4b5563; --skipped-line: #9ca3af;
  --stopped-bg: #e5e7eb; --stopped-fg: #1f2937; --stopped-line: #4b5563;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--text); background: var(--bg); }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible, [tabindex]:focus-visible {
  outline: 3px solid var(--focus); outline-offset: 2px;
}
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, "DejaVu Sans Mono", monospace; font-size: 0.9em; }
pre { background: var(--panel); border: 1px solid var(--line); padding: 0.5rem; overflow: auto; max-height: 24rem; white-space: pre-wrap; word-break: break-word; }
h1 { font-size: 1.5rem; margin: 0.5rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 1.25rem 0 0.5rem; }
h3 { font-size: 1rem; margin: 1rem 0 0.25rem; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 0.5rem; top: 0.5rem; background: #fff; padding: 0.5rem; z-index: 10; }
details > summary { cursor: pointer; margin: 0.5rem 0; color: var(--link); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.top { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: center; justify-content: space-between; padding: 0.6rem 1rem; background: #111827; color: #f9fafb; }
.top a { color: #f9fafb; }
.top .brand { font-weight: 600; text-decoration: none; }
.top nav { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; }
.top form { margin: 0; }
.link-button { background: none; border: 1px solid #9ca3af; color: #f9fafb; padding: 0.2rem 0.6rem; border-radius: 4px; font: inherit; cursor: pointer; }
main { padding: 1rem; max-width: 1400px; margin: 0 auto; }
main:focus { outline: none; }
.hint, .crumbs { color: var(--muted); margin: 0.25rem 0; }
.live-text { white-space: pre-wrap; word-break: break-word; max-height: 24rem; overflow-y: auto; }
.error { color: var(--failed-fg); background: var(--failed-bg); border: 1px solid var(--failed-line); padding: 0.5rem 0.75rem; border-radius: 4px; }
button { font: inherit; padding: 0.35rem 0.9rem; border-radius: 4px; border: 1px solid #1e3a8a; background: #1d4ed8; color: #fff; cursor: pointer; }
input, select { font: inherit; padding: 0.3rem 0.5rem; border: 1px solid #6b7280; border-radius: 4px; background: #fff; color: var(--text); }
.login { display: grid; gap: 0.5rem; max-width: 24rem; }
.filters { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: end; margin-bottom: 0.75rem; }
.filters label { display: grid; gap: 0.2rem; color: var(--muted); }
.table-scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
th { color: var(--muted); font-weight: 600; }
#more { margin-top: 0.75rem; }
.badge { display: inline-block; padding: 0 0.5rem; border-radius: 999px; border: 1px solid; font-size: 0.85em; font-weight: 600; }
${["pending", "scheduled", "running", "retrying", "succeeded", "failed", "skipped", "stopped"]
  .map((s) => `.status-${s} { --bg-s: var(--${s}-bg); --fg-s: var(--${s}-fg); --line-s: var(--${s}-line); }`)
  .join("\n")}
.status-completed { --bg-s: var(--succeeded-bg); --fg-s: var(--succeeded-fg); --line-s: var(--succeeded-line); }
.status-compiling { --bg-s: var(--scheduled-bg); --fg-s: var(--scheduled-fg); --line-s: var(--scheduled-line); }
.status-cancelled { --bg-s: var(--stopped-bg); --fg-s: var(--stopped-fg); --line-s: var(--stopped-line); }
.status-waiting, .status-queued { --bg-s: var(--retrying-bg); --fg-s: var(--retrying-fg); --line-s: var(--retrying-line); }
.offline-model { --bg-s: var(--retrying-bg); --fg-s: var(--retrying-fg); --line-s: var(--retrying-line); }
.status-minted { --bg-s: var(--pending-bg); --fg-s: var(--pending-fg); --line-s: var(--pending-line); }
.badge { background: var(--bg-s, var(--pending-bg)); color: var(--fg-s, var(--pending-fg)); border-color: var(--line-s, var(--pending-line)); }
#summary-list { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: 0.5rem 1rem; margin: 0; }
#summary-list div { min-width: 0; }
#summary-list dt { color: var(--muted); font-size: 0.85em; }
#summary-list dd { margin: 0; overflow-wrap: anywhere; }
.run-grid { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; align-items: start; }
@media (max-width: 820px) { .run-grid { grid-template-columns: minmax(0, 1fr); } main { padding: 0.75rem; } }
.dag-scroll { overflow: auto; border: 1px solid var(--line); border-radius: 6px; background: #fff; max-height: 70vh; }
#dag { display: block; }
#dag .edge { fill: none; stroke: #4b5563; stroke-width: 1.5; }
#dag .node { cursor: pointer; }
#dag .node rect.box { fill: var(--bg-s); stroke: var(--line-s); stroke-width: 2; }
#dag .node.status-skipped rect.box { stroke-dasharray: 5 4; }
#dag .node.selected rect.box { stroke-width: 4; }
#dag .node:focus { outline: none; }
#dag .node:focus-visible rect.box { stroke: var(--focus); stroke-width: 4; }
#dag .node .stack { fill: var(--bg-s); stroke: var(--line-s); stroke-width: 1.5; }
#dag .label { font-weight: 600; font-size: 13px; fill: var(--text); }
#dag .kind, #dag .state, #dag .branches { font-size: 12px; fill: #374151; }
#dag .chip { stroke: var(--line-s); stroke-width: 1; fill: var(--bg-s); }
@media (prefers-reduced-motion: no-preference) {
  #dag .node.status-running rect.box, #dag .node.status-retrying rect.box { stroke-dasharray: 8 4; animation: march 1s linear infinite; }
}
@keyframes march { to { stroke-dashoffset: -12; } }
#dag-a .edge, #dag-b .edge { fill: none; stroke: #4b5563; stroke-width: 1.5; }
#dag-a .node rect.box, #dag-b .node rect.box { fill: var(--bg-s); stroke: var(--line-s); stroke-width: 2; }
#dag-a .label, #dag-b .label { font-weight: 600; font-size: 13px; fill: var(--text); }
#dag-a .kind, #dag-a .state, #dag-b .kind, #dag-b .state { font-size: 12px; fill: #374151; }
#dag-a .node.compare-reused rect.box, #dag-b .node.compare-reused rect.box { stroke-dasharray: 3 3; fill: #eef2ff; }
#dag-a .node.compare-changed rect.box, #dag-b .node.compare-changed rect.box { stroke: #b45309; stroke-width: 4; fill: #fffbeb; }
.badge.compare-reused { background: #eef2ff; } .badge.compare-changed { background: #fffbeb; border-color: #b45309; } .badge.compare-same { background: #f0fdf4; }
#fork-actions form { margin: 0.5rem 0; }
#fork-actions textarea, #fork-actions input, #fork-actions select { max-width: 100%; box-sizing: border-box; }
.legend { display: flex; flex-wrap: wrap; gap: 0.4rem; list-style: none; padding: 0; margin: 0.5rem 0 0; }
#details { border: 1px solid var(--line); border-radius: 6px; padding: 0 0.75rem 0.75rem; background: var(--panel); min-width: 0; }
#details:focus { outline: none; }
#details:focus-visible { outline: 3px solid var(--focus); }
#details table { font-size: 0.9em; }
#details td, #details th { white-space: normal; overflow-wrap: anywhere; padding: 0.3rem 0.4rem; }
.timeline { list-style: none; padding: 0; margin: 0; font-size: 0.9em; }
.timeline li { display: grid; grid-template-columns: 5.5rem 6.5rem minmax(0, 1fr) 5.5rem; gap: 0.5rem; padding: 0.25rem 0; border-bottom: 1px solid #e5e7eb; align-items: baseline; }
.timeline .at, .timeline .dur { color: var(--muted); font-variant-numeric: tabular-nums; }
.timeline .dur { text-align: right; }
.timeline .what { min-width: 0; overflow-wrap: anywhere; }
.timeline .detail { display: block; color: var(--muted); }
.timeline .bar { display: block; height: 4px; background: var(--line-s, #9ca3af); margin-top: 2px; min-width: 2px; }
.timeline .outcome-ok { --line-s: var(--succeeded-line); }
.timeline .outcome-failed { --line-s: var(--failed-line); }
.timeline .outcome-running { --line-s: var(--running-line); }
.timeline .outcome-info { --line-s: #9ca3af; }
@media (max-width: 560px) { .timeline li { grid-template-columns: 4.5rem minmax(0, 1fr) 4.5rem; } .timeline .kind { display: none; } }
.cause { border-left: 4px solid var(--failed-line); background: var(--failed-bg); color: var(--failed-fg); padding: 0.5rem 0.75rem; }
.cause code { color: var(--failed-fg); }
dl.kv { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.2rem 0.75rem; }
dl.kv dt { color: var(--muted); }
dl.kv dd { margin: 0; overflow-wrap: anywhere; }
`;
