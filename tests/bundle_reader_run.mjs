// Reads a gzip-compressed tar with web/js/bundle.js (as the page's worker reads pellucid's files) and writes
// its files into a stand-in for Pyodide's file system; prints {path: hex bytes} of what was written, or the
// error.
//   node tests/bundle_reader_run.mjs <file.tar.gz>
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const { readBundle, writeFiles } = await import(path.join(here, "..", "web", "js", "bundle.js"));
const data = fs.readFileSync(process.argv[2]);
const folders = new Set(["/site"]);
const written = {};
const FS = {
  mkdirTree: (folder) => folder.split("/").forEach((_, i, parts) => folders.add(parts.slice(0, i + 1).join("/"))),
  writeFile: (file, bytes) => {
    if (!folders.has(path.posix.dirname(file))) throw new Error(`no folder for ${file}`);
    written[file] = Buffer.from(bytes).toString("hex");
  },
};
try {
  writeFiles(FS, "/site", await readBundle(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)));
  console.log(JSON.stringify(written));
} catch (error) {
  console.log(JSON.stringify({ error: String(error.message || error) }));
}
