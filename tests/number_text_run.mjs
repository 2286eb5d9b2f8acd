// Writes float64 values as the page's worker does for Python (web/js/number-text.js): reads the values from
// a file of little-endian float64s and prints their texts, one per line.
//   node tests/number_text_run.mjs <values.f64> <missing>
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const { numbersText } = await import(pathToFileURL(path.join(here, "..", "web", "js", "number-text.js")).href);
const bytes = fs.readFileSync(process.argv[2]);
const values = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8);
process.stdout.write(numbersText(values, process.argv[3]));
