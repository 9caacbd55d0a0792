// The plotting stack (vega, vega-lite) is an optional peer of an installed
// laminar: only figures need it. Whoever draws loads the renderer here, on
// demand; when the stack is missing, one line says so and how to get it, and
// the caller writes everything else.
import type { TopLevelSpec } from "vega-lite";

/** The optional package a failed dynamic import lacks, when it is one of `names`. */
export function missingPackage(e: unknown, names: readonly string[]): string | undefined {
  if (!(e instanceof Error) || (e as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND") return undefined;
  return names.find((n) => e.message.includes(`Cannot find package '${n}'`));
}

/** The line said when figures cannot be drawn because `lacking` is not installed. */
export function noFiguresLine(lacking: string, written: string): string {
  return `laminar: no SVG figures: drawing them needs the packages vega and vega-lite (${lacking} is not installed; they are optional for an installed laminar: npm install vega vega-lite); ${written} written`;
}

/** renderSvg, or null (after saying why on stderr) when the plotting stack is not installed. */
export async function svgRenderer(written: string): Promise<((spec: TopLevelSpec) => Promise<string>) | null> {
  try {
    return (await import("./render.js")).renderSvg;
  } catch (e) {
    const lacking = missingPackage(e, ["vega", "vega-lite"]);
    if (lacking === undefined) throw e;
    console.error(noFiguresLine(lacking, written));
    return null;
  }
}
