// report.html of `laminar reproduce`: every table and figure in one
// self-contained page (SVGs inline, no scripts, no external resources), so it
// reads offline and can be mailed around.
import type { Figure } from "./figures.js";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function reportHtml(title: string, intro: string, tables: Array<{ id: string; text: string }>, figs: Figure[]): string {
  const byExp = (id: string) => figs.filter((f) => f.file.startsWith(`${id}-`) || (id === "exp2" && f.file.startsWith("control-work")));
  const sections = tables.map((t) => `<section id="${t.id}">\n<pre>${esc(t.text)}</pre>\n${byExp(t.id).map((f) => `<figure>${f.svg}<figcaption>${esc(f.title)} (${esc(f.file)})</figcaption></figure>`).join("\n")}\n</section>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
pre { background: #f6f6f6; padding: 1em; overflow-x: auto; font-size: 12px; }
figure { display: inline-block; margin: 0.5em 1em 1em 0; vertical-align: top; }
figcaption { font-size: 12px; color: #555; }
</style></head><body>
<h1>${esc(title)}</h1>
<p>${esc(intro)}</p>
${sections.join("\n")}
</body></html>
`;
}
