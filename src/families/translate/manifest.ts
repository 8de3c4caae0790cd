/**
 * The manifest of a translated design as data: its types, progress, messages, and the walk that
 * lists the derivative files that can be downloaded.
 */

/** A message the platform attaches to a manifest node. */
export interface ManifestMessage {
  type?: string;
  code?: string;
  message?: string | string[];
}

/** A node of a manifest: a derivative, a geometry, a view or a resource. */
export interface ManifestNode {
  guid?: string;
  type?: string;
  role?: string;
  name?: string;
  urn?: string;
  mime?: string;
  status?: string;
  progress?: string;
  outputType?: string;
  messages?: ManifestMessage[];
  children?: ManifestNode[];
  [key: string]: unknown;
}

/** A manifest (modelderivative.yaml `Manifest`). */
export interface Manifest {
  urn: string;
  type: string;
  status: "pending" | "inprogress" | "success" | "failed" | "timeout" | string;
  progress: string;
  region?: string;
  hasThumbnail?: string;
  version?: string;
  derivatives: ManifestNode[];
  messages?: ManifestMessage[];
  [key: string]: unknown;
}

/** The numeric progress of a manifest or node: 100 on success or "complete", else the "NN% complete" number. */
export function progressPercent(node: { status?: string; progress?: string }): number {
  if (node.status === "success" || node.progress === "complete") return 100;
  const m = /(\d+(?:\.\d+)?)\s*%/.exec(node.progress ?? "");
  return m ? Math.min(100, Number(m[1])) : 0;
}

/** A message of a manifest, flattened. */
export interface FlatMessage {
  type: string;
  code?: string;
  message: string;
}

/** Every message of a manifest (errors and warnings), depth first. */
export function manifestMessages(
  manifest: { messages?: ManifestMessage[]; derivatives?: ManifestNode[] },
): FlatMessage[] {
  const out: FlatMessage[] = [];
  const take = (messages: ManifestMessage[] | undefined) => {
    for (const m of messages ?? []) {
      const text = Array.isArray(m.message) ? m.message.join(" ") : m.message ?? "";
      out.push({ type: m.type ?? "info", ...(m.code ? { code: m.code } : {}), message: text });
    }
  };
  const walk = (nodes: ManifestNode[] | undefined) => {
    for (const n of nodes ?? []) {
      take(n.messages);
      walk(n.children);
    }
  };
  take(manifest.messages);
  walk(manifest.derivatives);
  return out;
}

/** A derivative file listed in a manifest. */
export interface DerivativeFile {
  /** The derivative's URN (`urn:adsk.viewing:fs.file:...`), as the download endpoint wants it. */
  urn: string;
  /** The output type of the derivative it belongs to (svf2, obj, ...). */
  outputType: string;
  role?: string;
  mime?: string;
  guid?: string;
  status?: string;
  /** File name. */
  name: string;
  /** Where it goes inside a download directory: `/`-separated, no `..`, no absolute part. */
  path: string;
}

/**
 * The files of a manifest that can be downloaded (nodes with a `urn`, not failed), optionally of
 * one output type, each with a relative path that stays inside any directory it is joined to.
 */
export function downloadableDerivatives(
  manifest: Manifest,
  opts: { outputType?: string } = {},
): DerivativeFile[] {
  const out: DerivativeFile[] = [];
  const used = new Set<string>();
  const walk = (nodes: ManifestNode[] | undefined, outputType: string) => {
    for (const n of nodes ?? []) {
      if (typeof n.urn === "string" && n.urn !== "" && n.status !== "failed" && n.status !== "pending") {
        const path = uniquePath(safeRelativePath(n.urn, out.length + 1), used);
        out.push({
          urn: n.urn,
          outputType,
          ...(n.role ? { role: n.role } : {}),
          ...(n.mime ? { mime: n.mime } : {}),
          ...(n.guid ? { guid: n.guid } : {}),
          ...(n.status ? { status: n.status } : {}),
          name: path.slice(path.lastIndexOf("/") + 1),
          path,
        });
      }
      walk(n.children, outputType);
    }
  };
  for (const d of manifest.derivatives ?? []) {
    const type = d.outputType ?? "unknown";
    if (opts.outputType && type.toLowerCase() !== opts.outputType.toLowerCase()) continue;
    walk([d], type);
  }
  return out;
}

/**
 * A relative path for a derivative URN: what follows `/output/` (else the last segment), with
 * empty, `.` and `..` segments dropped and characters no file system accepts replaced.
 */
export function safeRelativePath(derivativeUrn: string, index: number): string {
  const at = derivativeUrn.indexOf("/output/");
  const tail = at >= 0 ? derivativeUrn.slice(at + "/output/".length) : derivativeUrn.split("/").pop() ?? "";
  const segments = tail.split(/[\\/]+/)
    // deno-lint-ignore no-control-regex
    .map((s) => s.replace(/[\u0000-\u001f<>:"|?*]/g, "_").replace(/[. ]+$/, ""))
    .filter((s) => s !== "" && s !== "." && s !== "..");
  return segments.length > 0 ? segments.join("/") : `derivative-${index}`;
}

/** `path`, or `name-2.ext`, `name-3.ext`... when it is taken. */
function uniquePath(path: string, used: Set<string>): string {
  let candidate = path;
  const dot = path.lastIndexOf(".");
  const slash = path.lastIndexOf("/");
  const [stem, ext] = dot > slash + 1 ? [path.slice(0, dot), path.slice(dot)] : [path, ""];
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${stem}-${n}${ext}`;
  used.add(candidate.toLowerCase());
  return candidate;
}

/** How far a translation is, overall and per output, with every message: the shared part of status views. */
export function manifestProgress(manifest: Manifest): {
  percent: number;
  outputs: { outputType?: string; status?: string; progress?: string; percent: number }[];
  problems: FlatMessage[];
} {
  return {
    percent: progressPercent(manifest),
    outputs: (manifest.derivatives ?? []).map((d) => ({
      outputType: d.outputType,
      status: d.status,
      progress: d.progress,
      percent: progressPercent(d),
    })),
    problems: manifestMessages(manifest),
  };
}
