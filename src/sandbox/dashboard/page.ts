/**
 * The dashboard page (`/_sandbox/ui`): one self-contained HTML document (no build step, no external
 * assets) whose script reads `/_sandbox/overview` every second and shows the live request log,
 * each service's state and the fault rules in force.
 */

const STYLE = `
:root { color-scheme: light dark; --line: #8884; --dim: #888; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; }
* { box-sizing: border-box; }
body { font: 13px/1.4 system-ui, sans-serif; margin: 0; padding: 12px 16px; }
header { display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; margin-bottom: 8px; }
h1 { font-size: 18px; margin: 0; }
h2 { font-size: 14px; margin: 14px 0 6px; }
.dim { color: var(--dim); }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 16px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 2px 6px; border-bottom: 1px solid var(--line); white-space: nowrap; }
td.path { white-space: normal; word-break: break-all; font-family: ui-monospace, monospace; }
.s2 { color: var(--ok); } .s3 { color: var(--warn); } .s4, .s5, .s0 { color: var(--bad); }
.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font-family: ui-monospace, monospace; }
`;

const SCRIPT = `
const $ = (id) => document.getElementById(id);
const esc = (v) => String(v ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
const rows = (items, cells, empty) => items.length
  ? items.map((x) => "<tr>" + cells(x).join("") + "</tr>").join("")
  : '<tr><td class="dim" colspan="9">' + empty + "</td></tr>";
const td = (v, cls) => "<td" + (cls ? ' class="' + cls + '"' : "") + ">" + esc(v) + "</td>";
function render(o) {
  $("uptime").textContent = "up " + o.uptime_seconds + " s";
  $("persist").textContent = o.data_dir ? "data dir " + o.data_dir : "in memory";
  $("snapshots").textContent = o.snapshots.length ? "snapshots: " + o.snapshots.map((s) => s.name).join(", ") : "";
  $("requests").innerHTML = rows(o.requests, (r) => [
    td(r.time.slice(11, 19), "dim"), td(r.method), td(r.path, "path"), td(r.status || "dropped", "s" + String(r.status)[0]),
    td(r.scope || r.grant_type || ""), td(r.duration_ms + " ms", "num"), td(r.fault_id || ""),
  ], "no requests yet");
  const s = o.services;
  $("buckets").innerHTML = rows(s.buckets, (b) => [td(b.key), td(b.policy), td(b.objects, "num"), td(b.bytes + " B", "num")], "no buckets");
  $("hubs").innerHTML = rows(s.hubs.flatMap((h) => h.projects.map((p) => ({ h, p }))), ({ h, p }) => [
    td(h.name), td(p.name), td(p.folders, "num"), td(p.items, "num"), td(p.issues, "num"),
  ], "no projects");
  $("hooks").innerHTML = rows(s.hooks, (h) => [
    td(h.event), td(h.callback_url, "path"), td(h.status),
    td(h.last_delivery ? (h.last_delivery.ok ? "delivered " : "failed ") + h.last_delivery.status : "none yet"),
  ], "no hooks");
  $("other").textContent = "apps: " + s.apps.join(", ") + " · translations: " + s.translations +
    " · work items: " + s.work_items + " · photoscenes: " + s.photoscenes;
  $("faults").innerHTML = rows(o.faults, (f) => [
    td(f.id), td((f.method || "*") + " " + f.path, "path"), td(f.drop ? "drop" : f.status ?? "delay"),
    td(f.remaining === null ? "unlimited" : f.remaining + " left"), td(f.fired + " fired"),
  ], "no faults in force");
}
async function tick() {
  try {
    const res = await fetch("overview" + location.search, { cache: "no-store" });
    render(await res.json());
    $("status").textContent = "live";
  } catch (e) {
    $("status").textContent = "sandbox unreachable";
  }
  setTimeout(tick, 1000);
}
tick();
`;

/** The dashboard as one HTML document. */
export function dashboardPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>diazo sandbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><style>${STYLE}</style></head>
<body>
<header><h1>diazo sandbox</h1><span id="status" class="dim">loading…</span><span id="uptime" class="dim"></span>
<span id="persist" class="dim"></span><span id="snapshots" class="dim"></span></header>
<main>
<section><h2>Requests (newest first)</h2>
<table><thead><tr><th>time</th><th>method</th><th>path</th><th>status</th><th>scope</th><th>duration</th><th>fault</th></tr></thead>
<tbody id="requests"></tbody></table></section>
<section>
<h2>Buckets</h2><table><thead><tr><th>bucket</th><th>policy</th><th>objects</th><th>size</th></tr></thead><tbody id="buckets"></tbody></table>
<h2>Hubs and projects</h2><table><thead><tr><th>hub</th><th>project</th><th>folders</th><th>items</th><th>issues</th></tr></thead><tbody id="hubs"></tbody></table>
<h2>Webhooks</h2><table><thead><tr><th>event</th><th>callback</th><th>status</th><th>last delivery</th></tr></thead><tbody id="hooks"></tbody></table>
<p id="other" class="dim"></p>
<h2>Faults in force</h2><table><thead><tr><th>id</th><th>rule</th><th>answer</th><th>count</th><th>fired</th></tr></thead><tbody id="faults"></tbody></table>
</section>
</main>
<script>${SCRIPT}</script>
</body></html>
`;
}
