/**
 * The platform's rule for the names of data management folders, items and versions
 * (openapi/datamanagement/datamanagement.yaml): 1-255 characters, none of the reserved ones. Shared by
 * diazo's checks and the sandbox's.
 */

/** Characters the platform refuses in names. */
const RESERVED = /[<>:"/\\|?*'\n\r\t\0\f¢™$®]/;

/** What is wrong with `name` as a data management name, or undefined when the platform takes it. */
export function dmNameProblem(name: string): string | undefined {
  if (name.length === 0) return "is empty";
  if (name.length > 255) return "is longer than 255 characters";
  if (RESERVED.test(name)) {
    return "holds a reserved character (< > : \" / \\ | ? * ' $ ¢ ™ ® or a control character)";
  }
  return undefined;
}
