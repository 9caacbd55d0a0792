// Numbers typed by a user (flags, --set) are read only in decimal notation:
// digits with an optional sign, point and exponent ("5000", "0.9", "1e3",
// "-2.5E-1"), and "_" between digits ("5_000"). Hex, octal and binary
// ("0x100", "0o7", "0b1"), "Infinity", empty text and spaces are refused,
// where Number() would take them silently.
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The number `text` writes in decimal notation, or NaN when it is anything else. */
export function decimal(text: string): number {
  const t = text.replace(/(\d)_(?=\d)/g, "$1");
  return DECIMAL.test(t) ? Number(t) : NaN;
}
