// report.html of `laminar reproduce`: every table and every figure the run
// wrote in one self-contained page (SVGs inline, no scripts, no external
// resources), so it reads offline and can be mailed around. Each figure sits
// in its experiment's section with a one-line caption and a link to its SVG
// file beside the page; a figure of an experiment without a table still
// appears, in a section of its own. A caption is as wide as its figure.
import type { Figure } from "./figures.js";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function figureHtml(f: Figure): string {
  const id = f.file.replace(/\.svg$/, "");
  return `<figure id="fig-${esc(id)}" data-file="${esc(f.file)}">${f.svg}<figcaption>${esc(f.caption)} <a href="${esc(f.file)}">${esc(f.file)}</a></figcaption></figure>`;
}

export function reportHtml(title: string, intro: string, tables: Array<{ id: string; text: string }>, figs: Figure[]): string {
  const sections = tables.map((t) => `<section id="${esc(t.id)}">\n<pre>${esc(t.text)}</pre>\n${figs.filter((f) => f.experiment === t.id).map(figureHtml).join("\n")}\n</section>`);
  const rest = figs.filter((f) => !tables.some((t) => t.id === f.experiment));
  if (rest.length > 0) sections.push(`<section id="other-figures">\n<h2>Other figures</h2>\n${rest.map(figureHtml).join("\n")}\n</section>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }
pre { background: #f6f6f6; padding: 1em; overflow-x: auto; font-size: 12px; }
figure { display: inline-table; margin: 0.5em 1em 1.5em 0; vertical-align: top; }
figure svg { max-width: 100%; height: auto; }
figcaption { display: table-caption; caption-side: bottom; font-size: 12px; color: #555; }
</style></head><body>
<h1>${esc(title)}</h1>
<p>${esc(intro)}</p>
${sections.join("\n")}
</body></html>
`;
}
