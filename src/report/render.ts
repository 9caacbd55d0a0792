// A Vega-Lite spec to SVG, headless in Node (no browser, no canvas).
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import { hollowPaperLegend } from "./legend.js";

/**
 * Vega's logger at warning level, without the warning Vega-Lite gives when
 * one layer of a chart opts out of a legend the others draw (chart.ts does
 * that on purpose: the legend comes from our markers' layer).
 */
function logger(): vega.LoggerInterface {
  const base = vega.logger(vega.Warn);
  const quiet = /^Conflicting legend property "disable"/;
  const l: vega.LoggerInterface = {
    level: ((...a: [number?]) => (a.length === 0 ? base.level() : (base.level(a[0]!), l))) as vega.LoggerInterface["level"],
    error: (...a: readonly unknown[]) => (base.error(...a), l),
    warn: (...a: readonly unknown[]) => (quiet.test(String(a[0])) ? l : (base.warn(...a), l)),
    info: (...a: readonly unknown[]) => (base.info(...a), l),
    debug: (...a: readonly unknown[]) => (base.debug(...a), l),
  };
  return l;
}

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const compiled = compile(spec, { logger: logger() }).spec;
  hollowPaperLegend(compiled);
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  return view.toSVG();
}
