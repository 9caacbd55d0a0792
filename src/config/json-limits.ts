// Checks on a config file's JSON text that JSON.parse does not make: nesting
// no deeper than a limit (so nothing later recurses out of stack), and no
// key given twice in one object (JSON.parse would keep the last silently).
// One pass without recursion, run before JSON.parse (whose own errors are
// left to it: on text that is not JSON this check just stops).

/** The deepest nesting of objects and arrays a config file may have (the registry's deepest name has 4 parts). */
export const MAX_CONFIG_DEPTH = 16;

/** Throws an Error (one line) at the first object nested too deep or key given twice; `text` that is not JSON is left to JSON.parse. */
export function checkJsonLimits(text: string, maxDepth = MAX_CONFIG_DEPTH): void {
  const stack: Array<{ keys: Set<string> | null; expectKey: boolean; path: string }> = [];
  let lastKey = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === "{" || c === "[") {
      const path = top === undefined ? "" : top.keys === null ? `${top.path}[]` : `${top.path}${top.path ? "." : ""}${lastKey}`;
      if (stack.length >= maxDepth) throw new Error(`nested deeper than ${maxDepth} levels (at ${path || "the top"})`);
      stack.push({ keys: c === "{" ? new Set() : null, expectKey: c === "{", path });
    } else if (c === "}" || c === "]") {
      stack.pop();
    } else if (c === ",") {
      if (top?.keys) top.expectKey = true;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (j >= text.length) return; // unterminated: JSON.parse names the error
      if (top?.keys && top.expectKey) {
        let key: string;
        try {
          key = JSON.parse(text.slice(i, j + 1)) as string;
        } catch {
          return; // a bad string: JSON.parse names the error
        }
        const name = `${top.path}${top.path ? "." : ""}${key}`;
        if (top.keys.has(key)) throw new Error(`key "${name}" given more than once`);
        top.keys.add(key);
        top.expectKey = false;
        lastKey = key;
      }
      i = j;
    }
  }
}
