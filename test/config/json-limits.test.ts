// Config text checks beyond JSON.parse: nesting depth, keys given twice; and
// numbers read only in decimal notation.
import { describe, expect, it } from "vitest";
import { checkJsonLimits } from "../../src/config/json-limits.js";
import { decimal } from "../../src/config/decimal.js";

describe("checkJsonLimits", () => {
  it("passes ordinary config text, strings with braces and escapes included", () => {
    expect(() => checkJsonLimits('{"a": {"b": [1, {"c": "}{\\"x"}]}, "d": "a,b"}')).not.toThrow();
  });
  it("refuses nesting deeper than the limit, without recursion", () => {
    expect(() => checkJsonLimits("[".repeat(1_000_000) + "]".repeat(1_000_000))).toThrow(/nested deeper than 16 levels/);
    expect(() => checkJsonLimits('{"a":'.repeat(3) + "1" + "}".repeat(3), 2)).toThrow(/nested deeper than 2 levels \(at a\.a\)/);
  });
  it("refuses a key given twice in one object, naming it; the same key in two objects is fine", () => {
    expect(() => checkJsonLimits('{"w": {"rho": 1, "rho": 2}}')).toThrow(/key "w\.rho" given more than once/);
    expect(() => checkJsonLimits('{"a": 1, "\\u0061": 2}')).toThrow(/key "a"/);
    expect(() => checkJsonLimits('{"a": {"x": 1}, "b": {"x": 1}}')).not.toThrow();
  });
  it("leaves text that is not JSON to JSON.parse", () => {
    expect(() => checkJsonLimits('{"a": "unterminated')).not.toThrow();
  });
});

describe("decimal", () => {
  it("reads decimal notation, with _ between digits", () => {
    expect([decimal("5000"), decimal("5_000"), decimal("0.9"), decimal("-2.5E-1"), decimal("1e3"), decimal(".5")]).toEqual([5000, 5000, 0.9, -0.25, 1000, 0.5]);
  });
  it("refuses hex, octal, binary, Infinity, empty text and spaces", () => {
    for (const t of ["0x100", "0o7", "0b1", "Infinity", "", " ", " 1", "1 ", "NaN", "1_", "_1"]) expect(decimal(t), t).toBeNaN();
  });
});
