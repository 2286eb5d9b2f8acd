// The pellucid wheel's files, read in JavaScript while Python's runtime is still starting. Unpacking the
// wheel with Pyodide's unpackArchive runs Python's zipfile over its ~280 files after the runtime is up,
// on the start's critical path; read here, the files are inflated while the runtime loads, and writing
// them into Python's file system afterwards is only copies.
//
// A wheel is a zip: its central directory, found from the end record, lists each file's name, method
// (0 stored, 8 deflated), compressed size and where its local header is; the data follows that header.

const END_RECORD = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

function endRecord(view) {
  for (let at = view.byteLength - 22; at >= Math.max(0, view.byteLength - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === END_RECORD) return at;
  }
  throw new Error("not a zip file (no end record)");
}

function entries(buffer) {
  const view = new DataView(buffer);
  const end = endRecord(view);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const names = new TextDecoder();
  const found = [];
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== CENTRAL_ENTRY) throw new Error("broken central directory");
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const name = names.decode(new Uint8Array(buffer, at + 46, nameLength));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (name.endsWith("/")) continue;
    if (method !== 0 && method !== 8) throw new Error(`${name}: compression method ${method}`);
    if (view.getUint32(local, true) !== LOCAL_HEADER) throw new Error(`${name}: no local header`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    found.push({ name, method, data: new Uint8Array(buffer, start, size) });
  }
  return found;
}

async function inflate(data) {
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// [{name, bytes}] of every file in the wheel; rejects if the browser cannot inflate or the zip is one
// this reader does not know (the caller then lets Pyodide unpack it).
export async function readWheel(buffer) {
  if (typeof DecompressionStream === "undefined") throw new Error("no DecompressionStream");
  return Promise.all(entries(buffer).map(async ({ name, method, data }) =>
    ({ name, bytes: method === 8 ? await inflate(data) : data })));
}

// Writes the files under `dir` in Pyodide's file system (FS), making their folders.
export function writeFiles(FS, dir, files) {
  const made = new Set();
  for (const { name, bytes } of files) {
    const folder = name.includes("/") ? `${dir}/${name.slice(0, name.lastIndexOf("/"))}` : dir;
    if (!made.has(folder)) {
      FS.mkdirTree(folder);
      made.add(folder);
    }
    FS.writeFile(`${dir}/${name}`, bytes);
  }
}
