// report.html in a real browser: headless Chromium (Debian's `chromium`
// package, /usr/bin/chromium; the test is skipped without it) loads a report
// of synthetic results for every experiment, with each figure's SVG file
// beside it, and a probe script added to a copy of the page measures what it
// laid out: every figure's inline SVG drawn at a real size with its marks,
// and every linked SVG file loaded as an image.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { figures } from "../../src/report/figures.js";
import { reportHtml } from "../../src/report/html.js";
import { syntheticResults } from "./fixtures.js";

const CHROMIUM = "/usr/bin/chromium";
const have = existsSync(CHROMIUM);

/** Measures each figure once the page has loaded, into <pre id="probe"> (JSON). */
const PROBE = `<script>
window.addEventListener("load", async () => {
  const out = [];
  for (const f of document.querySelectorAll("figure")) {
    const svg = f.querySelector("svg"), box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
    const img = await new Promise((done) => {
      const i = new Image();
      i.onload = () => done(i.naturalWidth);
      i.onerror = () => done(0);
      i.src = f.dataset.file;
    });
    out.push({ file: f.dataset.file, width: box.width, height: box.height, marks: svg ? svg.querySelectorAll("path, line, text").length : 0, imageWidth: img });
  }
  const pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>`;

interface Probe {
  file: string;
  width: number;
  height: number;
  marks: number;
  imageWidth: number;
}

describe("report.html in headless Chromium", () => {
  it.skipIf(!have)(`loads every figure, inline and as its SVG file${have ? "" : ` (skipped: ${CHROMIUM} is absent; apt-get install chromium)`}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "laminar-report-chromium-"));
    const profile = mkdtempSync(join(tmpdir(), "laminar-chromium-profile-"));
    try {
      const results = syntheticResults({ seeds: 2, artifact: true });
      const figs = await figures(results);
      const tables = ["exp1", "exp2", "exp3", "exp4a", "exp4b", "exp5"].map((id) => ({ id, text: `${id} table` }));
      for (const f of figs) writeFileSync(join(dir, f.file), f.svg);
      const html = reportHtml("report", "intro", tables, figs);
      writeFileSync(join(dir, "report.html"), html);
      writeFileSync(join(dir, "probe.html"), html.replace("</body>", `${PROBE}\n</body>`));
      const r = spawnSync(CHROMIUM, [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", `--user-data-dir=${profile}`,
        "--virtual-time-budget=10000", "--dump-dom", pathToFileURL(join(dir, "probe.html")).href,
      ], { encoding: "utf8", timeout: 90_000 });
      expect(r.error, String(r.error)).toBeUndefined();
      const m = /<pre id="probe">(.*?)<\/pre>/s.exec(r.stdout);
      expect(m, `no probe output; chromium exited ${r.status}: ${r.stderr.slice(-2000)}`).not.toBeNull();
      const probe = JSON.parse(m![1].replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")) as Probe[];
      expect(probe.map((p) => p.file)).toEqual(figs.map((f) => f.file));
      expect(figs.length).toBe(12);
      for (const p of probe) {
        expect(p.width, p.file).toBeGreaterThan(200);
        expect(p.height, p.file).toBeGreaterThan(150);
        expect(p.marks, p.file).toBeGreaterThan(20);
        expect(p.imageWidth, p.file).toBeGreaterThan(200);
      }
      expect(readFileSync(join(dir, "report.html"), "utf8")).not.toMatch(/<script/); // the report itself stays script-free
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(profile, { recursive: true, force: true });
    }
  }, 120_000);
});
