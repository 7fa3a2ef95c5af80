// Validate AsyncAPI documents with the official parser (@asyncapi/parser, pinned in package.json).
// Usage: node validate-asyncapi.mjs FILE...   Prints every diagnostic as JSON lines; exit 1 on any error.
import { readFile } from "node:fs/promises";
import { Parser } from "@asyncapi/parser";

const parser = new Parser();
let failed = false;
for (const file of process.argv.slice(2)) {
  const text = await readFile(file, "utf8");
  const diagnostics = await parser.validate(text, { source: file });
  for (const d of diagnostics) {
    // Spectral severities: 0 error, 1 warning, 2 info, 3 hint.
    const severity = ["error", "warning", "info", "hint"][d.severity] ?? String(d.severity);
    if (d.severity === 0) failed = true;
    console.log(JSON.stringify({ file, severity, code: d.code, message: d.message, path: d.path }));
  }
}
process.exit(failed ? 1 : 0);
