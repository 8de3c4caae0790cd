/**
 * Which source designs translate to which output types: the platform's table of supported
 * translations (`GET /modelderivative/v2/designdata/formats`), with the sandbox's additions.
 */

/** Output types a job may request: the platform's, as the client knows them. */
export { OUTPUT_TYPES, type OutputType } from "../../aps/derivative_formats.ts";
import { OUTPUT_TYPES, type OutputType } from "../../aps/derivative_formats.ts";

/** True when `value` names an output type. */
export function isOutputType(value: unknown): value is OutputType {
  return typeof value === "string" && (OUTPUT_TYPES as readonly string[]).includes(value);
}

const VIEWABLE =
  "3dm 3ds a asm axm brd catpart catproduct cgr collaboration dae ddx ddz dgk dgn dlv3 dmt dwf dwfx dwg dwt dxf " +
  "emodel exp f3d fbrd fbx fsch g gbxml glb gltf iam idw ifc ifw ige iges igs ipt iwm jt max model mpf msr neu " +
  "nwc nwd obj osb par pdf pmlprj pmlprjz prt psm psmodel rcp rvt sab sat sch session skp sldasm sldprt smb smt " +
  "ste step stl stla stlb stp stpz vpb vue wire x_b x_t xas xpr zip";
const THUMBNAIL_EXTRA = "axmf dwgx f2d flbr fprj rva";
const NUMBERED = ["asm\\.\\d+$", "neu\\.\\d+$", "prt\\.\\d+$"];
const words = (text: string) => text.split(" ");

/**
 * The platform's table as of the OpenAPI example, plus (marked `sandbox`) OBJ and STL outputs
 * from the formats the sandbox reads, so that those exports can be tried offline.
 */
export const SUPPORTED_FORMATS: Readonly<Record<OutputType, readonly string[]>> = {
  dwg: ["f2d", "f3d", "rvt"],
  fbx: ["f3d"],
  ifc: ["rvt"],
  iges: ["f3d", "fbx", "iam", "ipt", "wire"],
  obj: [
    ...words("asm f3d fbx iam ipt neu prt sldasm sldprt smb smt step stp stpz wire x_b x_t"),
    ...NUMBERED,
    ...words("obj stl dxf ifc"), // sandbox
  ],
  step: words("f3d fbx iam ipt smb smt wire"),
  stl: [...words("f3d fbx iam ipt wire"), ...words("obj stl")], // the last two: sandbox
  svf: [...words(VIEWABLE), ...NUMBERED],
  svf2: [...words(VIEWABLE), ...NUMBERED],
  thumbnail: [...[...words(VIEWABLE), ...words(THUMBNAIL_EXTRA)].sort(), ...NUMBERED],
};

/** When the table last changed, for `Last-Modified` and `If-Modified-Since`. */
export const FORMATS_LAST_MODIFIED = Date.UTC(2024, 0, 15, 0, 0, 0);

/** The lower-case extension of a file name (`"a/b/Model.OBJ"` -> `"obj"`), or "" without one. */
export function fileExtension(fileName: string): string {
  const base = fileName.slice(fileName.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? "" : base.slice(dot + 1).toLowerCase();
}

/** True when the design `fileName` translates to `type`. */
export function translatable(type: OutputType, fileName: string): boolean {
  const lower = fileName.toLowerCase();
  const ext = fileExtension(lower);
  return SUPPORTED_FORMATS[type].some((entry) =>
    entry.includes("\\") ? new RegExp(entry).test(lower) : ext !== "" && entry === ext
  );
}
