// pellucid's files (sources and compiled bytecode), read in JavaScript while Python's runtime is still
// starting, so that writing them into Python's file system afterwards is only copies. The build ships them
// as one gzip-compressed tar (build.py, wheel_as_bundle): the browser inflates the whole of it in one pass
// of a DecompressionStream, where a zip's files are compressed one by one and each needs a stream of its
// own.
//
// A tar is a run of 512-byte blocks: each file is a header block (name, octal size, type, checksum,
// "ustar" magic, and a prefix for long names), then its data padded to whole blocks; two zero blocks end
// it.

const BLOCK = 512;
const text = new TextDecoder();

function field(header, start, length) {
  const bytes = header.subarray(start, start + length);
  const end = bytes.indexOf(0);
  return text.decode(end < 0 ? bytes : bytes.subarray(0, end));
}

function octal(header, start, length) {
  const value = field(header, start, length).trim();
  if (!/^[0-7]+$/.test(value)) throw new Error(`not a tar archive (size field "${value}")`);
  return parseInt(value, 8);
}

// The header's checksum: the sum of its bytes, with the checksum field itself counted as spaces.
function checksumMatches(header) {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i];
  return sum === octal(header, 148, 8);
}

function isEnd(header) {
  return header.every((byte) => byte === 0);
}

// [{name, bytes}] of every regular file in an uncompressed tar (bytes are views into `archive`).
export function tarFiles(archive) {
  const files = [];
  for (let at = 0; at + BLOCK <= archive.length;) {
    const header = archive.subarray(at, at + BLOCK);
    if (isEnd(header)) return files;
    if (field(header, 257, 5) !== "ustar" || !checksumMatches(header)) throw new Error("not a tar archive (bad header)");
    const size = octal(header, 124, 12);
    const prefix = field(header, 345, 155);
    const name = (prefix ? `${prefix}/` : "") + field(header, 0, 100);
    const type = String.fromCharCode(header[156] || 48);  // "0" (or NUL) is a regular file
    if (at + BLOCK + size > archive.length) throw new Error(`${name}: cut short`);
    if (type === "0") files.push({ name, bytes: archive.subarray(at + BLOCK, at + BLOCK + size) });
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new Error("not a tar archive (no end)");
}

// [{name, bytes}] of every file in the gzip-compressed tar `buffer`; rejects if this browser cannot
// inflate or the archive is not one (the caller then lets Pyodide unpack it).
export async function readBundle(buffer) {
  if (typeof DecompressionStream === "undefined") throw new Error("no DecompressionStream");
  const stream = new Blob([buffer]).stream().pipeThrough(new DecompressionStream("gzip"));
  return tarFiles(new Uint8Array(await new Response(stream).arrayBuffer()));
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
