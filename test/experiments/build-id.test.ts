// reproduce's build id: the same files give the same id; any change to the compiled code, the core or the version gives another.
import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildId } from "../../src/experiments/build-id.js";

describe("buildId", () => {
  it("follows the version, dist/src's JavaScript and the core, and nothing else", () => {
    const root = mkdtempSync(join(tmpdir(), "laminar-build-id-"));
    try {
      mkdirSync(join(root, "dist", "src", "sim"), { recursive: true });
      mkdirSync(join(root, "build"));
      writeFileSync(join(root, "package.json"), JSON.stringify({ version: "1.0.0" }));
      writeFileSync(join(root, "dist", "src", "sim", "a.js"), "export const a = 1;\n");
      writeFileSync(join(root, "build", "core.wasm"), "\0asm");
      const id = buildId(root);
      expect(id).toMatch(/^[0-9a-f]{16}$/);
      expect(buildId(root)).toBe(id);
      writeFileSync(join(root, "dist", "src", "notes.txt"), "not code");
      expect(buildId(root)).toBe(id);
      writeFileSync(join(root, "dist", "src", "sim", "a.js"), "export const a = 2;\n");
      const changed = buildId(root);
      expect(changed).not.toBe(id);
      writeFileSync(join(root, "build", "core.wasm"), "\0asm\x01");
      expect(buildId(root)).not.toBe(changed);
      const core = buildId(root);
      writeFileSync(join(root, "package.json"), JSON.stringify({ version: "1.0.1" }));
      expect(buildId(root)).not.toBe(core);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
