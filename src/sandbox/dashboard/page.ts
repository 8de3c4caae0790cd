/**
 * The dashboard page (`/_sandbox/ui`): one self-contained HTML document (no build step, no external
 * assets) whose script reads `/_sandbox/overview` every second and shows the live request log,
 * each service's state and the fault rules in force.
 */

const STYLE = `
:root { color-scheme: light dark; --line: #8884; --dim: #888; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; }
* { box-sizing: border-box; }
body { font: 13px/1.4 system-ui, sans-serif; margin: 0; padding: 12px 16px; }
header { display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; margin-bottom: 4px; }
h1 { font-size: 18px; margin: 0; }
h2 { font-size: 14px; margin: 14px 0 6px; }
.dim { color: var(--dim); }
main { display: grid; grid-template-columns: minmax(0, 1fr) clamp(340px, 34vw, 580px); gap: 0 24px; align-items: start; }
#panel { position: sticky; top: 0; max-height: 100vh; overflow-y: auto; padding-bottom: 8px; }
@media (max-width: 1199px) {
  main { grid-template-columns: minmax(0, 1fr); }
  #panel { order: -1; position: static; max-height: none; display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0 24px; }
  #other { grid-column: 1 / -1; }
}
@media (max-width: 899px) { #panel { grid-template-columns: minmax(0, 1fr); } }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { text-align: left; padding: 2px 6px; border-bottom: 1px solid var(--line); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.path { font-family: ui-monospace, monospace; }
.s2 { color: var(--ok); } .s3 { color: var(--warn); } .s4, .s5, .s0 { color: var(--bad); }
.num { text-align: right; font-variant-numeric: tabular-nums; }
#other { margin: 14px 0 0; }
`;

/**
 * Column widths: a fixed column in characters of the table's font, wide enough for its header in bold
 * and its usual values; the columns left empty share the rest (the request's path the most). A value
 * wider than its cell ends with an ellipsis, and the cell's title holds it whole.
 */
const COLS = {
  requests: ["9ch", "8.5ch", "", "8ch", "16%", "9.5ch", "6ch"],
  buckets: ["", "10ch", "8.5ch", "10ch"],
  hubs: ["", "", "8.5ch", "6.5ch", "7ch"],
  hooks: ["", "", "9ch", "13ch"],
  faults: ["4ch", "", "8ch", "9.5ch", "7.5ch"],
};

/** A table with its column widths, header cells (`#` marks a number column) and body id. */
function table(id: keyof typeof COLS, heads: string[]): string {
  const cols = COLS[id].map((w) => w ? `<col style="width: ${w}">` : "<col>").join("");
  const ths = heads.map((h) => h.startsWith("#") ? `<th class="num">${h.slice(1)}</th>` : `<th>${h}</th>`);
  return `<table id="${id}-table"><colgroup>${cols}</colgroup><thead><tr>${ths.join("")}</tr></thead>` +
    `<tbody id="${id}"></tbody></table>`;
}

const SCRIPT = `
const $ = (id) => document.getElementById(id);
const esc = (v) => String(v ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
// A table's rows, or one line across all its columns when there are none.
const fill = (id, items, cells, empty) => $(id).innerHTML = items.length
  ? items.map((x) => "<tr>" + cells(x).join("") + "</tr>").join("")
  : '<tr><td class="dim" colspan="' + $(id + "-table").tHead.rows[0].cells.length + '">' + empty + "</td></tr>";
// Every cell carries its whole text as a title: a cell too narrow for it ends with an ellipsis (a path
// is cut in the middle instead, by cutPaths).
const td = (v, cls, title) => "<td" + (cls ? ' class="' + cls + '"' : "") + ' title="' + esc(title ?? v) + '">' +
  esc(v) + "</td>";
function render(o) {
  $("uptime").textContent = "up " + o.uptime_seconds + " s";
  $("persist").textContent = o.data_dir ? "data dir " + o.data_dir : "in memory";
  $("snapshots").textContent = o.snapshots.length ? "snapshots: " + o.snapshots.map((s) => s.name).join(", ") : "";
  fill("requests", o.requests, (r) => [
    td(r.time.slice(11, 19), "dim", r.time), td(r.method), td(r.path, "path"),
    td(r.status || "dropped", "s" + String(r.status)[0]), td(r.scope || r.grant_type || ""),
    td(r.duration_ms + " ms", "num"), td(r.fault_id || ""),
  ], "no requests yet");
  const s = o.services;
  fill("buckets", s.buckets, (b) => [
    td(b.key), td(b.policy), td(b.objects, "num"), td(b.size, "num", b.bytes + " bytes"),
  ], "no buckets");
  fill("hubs", s.hubs.flatMap((h) => h.projects.map((p) => ({ h, p }))), ({ h, p }) => [
    td(h.name), td(p.name), td(p.folders, "num"), td(p.items, "num"), td(p.issues, "num"),
  ], "no projects");
  fill("hooks", s.hooks, (h) => [
    td(h.event), td(h.callback_url, "path"), td(h.status),
    td(h.last_delivery ? (h.last_delivery.ok ? "delivered " : "failed ") + h.last_delivery.status : "none yet"),
  ], "no hooks");
  $("other").textContent = "apps: " + s.apps.join(", ") + " · translations: " + s.translations +
    " · work items: " + s.work_items + " · photoscenes: " + s.photoscenes;
  fill("faults", o.faults, (f) => [
    td(f.id), td((f.method || "*") + " " + f.path, "path"), td(f.drop ? "drop" : f.status ?? "delay"),
    td(f.remaining === null ? "unlimited" : f.remaining + " left"), td(f.fired + " fired"),
  ], "no faults in force");
  cutPaths();
}
// A path too long for its cell keeps its start and its end (the end names the operation), cut in the
// middle; a path cell's font is monospace, so the characters that fit are its width over one's.
const ruler = document.createElement("canvas").getContext("2d");
function cutPaths() {
  for (const table of document.querySelectorAll("table")) {
    const cells = table.querySelectorAll("td.path");
    if (!cells.length) continue;
    const style = getComputedStyle(cells[0]);
    ruler.font = style.font;
    // The cell's width unrounded, less its padding and a pixel to spare (clientWidth is rounded).
    const room = cells[0].getBoundingClientRect().width - parseFloat(style.paddingLeft) -
      parseFloat(style.paddingRight) - 1;
    const fit = Math.floor(room / (ruler.measureText("0".repeat(20)).width / 20));
    for (const cell of cells) {
      const whole = cell.title;
      const tail = Math.floor((fit - 1) * 0.45);
      cell.textContent = whole.length <= fit || fit < 12 ? whole : whole.slice(0, fit - 1 - tail) + "…" + whole.slice(-tail);
    }
  }
}
addEventListener("resize", cutPaths);
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
<section id="log"><h2>Requests (newest first)</h2>
${table("requests", ["time", "method", "path", "status", "scope", "#duration", "fault"])}</section>
<aside id="panel">
<section><h2>Buckets</h2>${table("buckets", ["bucket", "policy", "#objects", "#size"])}</section>
<section><h2>Hubs and projects</h2>${
    table("hubs", ["hub", "project", "#folders", "#items", "#issues"])
  }</section>
<section><h2>Webhooks</h2>${table("hooks", ["event", "callback", "status", "last delivery"])}</section>
<section><h2>Faults in force</h2>${table("faults", ["id", "rule", "answer", "count", "fired"])}</section>
<p id="other" class="dim"></p>
</aside>
</main>
<script>${SCRIPT}</script>
</body></html>
`;
}
