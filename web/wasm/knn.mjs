// k-NN's candidate search in WebAssembly SIMD (knn.wasm, compiled by build.py from knn.wat), for
// Python in the same worker: py/pellucid/learners/neighbors/wasm_kernel.py finds it as
// globalThis.pellucidKernels.knn and calls it synchronously with the addresses of numpy arrays in
// Pyodide's memory. The training rows are copied into the kernel's own memory once per model, each
// block of queries once per call, and the candidates back into an array Python made for them.

const SCRATCH_BYTES = 32; // knn.wat keeps its first 32 bytes for itself
const PAGE_BYTES = 65536;

const align = (bytes) => Math.ceil(bytes / 16) * 16;

// The kernel's exports from the module's bytes (or a fetch Response for them).
export async function instantiateKnn(source) {
  const bytes = source instanceof Response ? await source.arrayBuffer() : source;
  const { instance } = await WebAssembly.instantiate(bytes);
  return instance.exports;
}

// What Python calls. pythonMemory() returns Pyodide's heap (an ArrayBuffer): asked for at every call,
// because the heap is a new ArrayBuffer after it grows.
export function knnKernel(kernel, pythonMemory) {
  let trainBytes = 0; // the training panels, from SCRATCH_BYTES on
  let features = 0;
  let found = null; // where the last search left its candidates

  // Room for `bytes` in the kernel's memory; false when it cannot grow that far.
  function reserve(bytes) {
    const missing = bytes - kernel.memory.buffer.byteLength;
    if (missing <= 0) return true;
    try {
      kernel.memory.grow(Math.ceil(missing / PAGE_BYTES));
      return true;
    } catch {
      return false;
    }
  }

  function copy(toBuffer, to, fromBuffer, from, bytes) {
    if (bytes === 0) return; // an empty numpy array's address may lie anywhere
    new Uint8Array(toBuffer, to, bytes).set(new Uint8Array(fromBuffer, from, bytes));
  }

  return {
    // The training rows: float32 panels of 8 rows (nPanels x d x 8, see knn.wat) at `address` in
    // Python's memory. False when the kernel's memory cannot hold them.
    loadRows(address, nPanels, d) {
      const bytes = nPanels * d * 32;
      trainBytes = 0;
      if (!reserve(SCRATCH_BYTES + bytes)) return false;
      copy(kernel.memory.buffer, SCRATCH_BYTES, pythonMemory(), address, bytes);
      trainBytes = bytes;
      features = d;
      return true;
    },

    // Searches nq queries (a multiple of 4; float32, groups of 4 x d at leftAddress; float64 slack at
    // slackAddress) for the candidates among their k nearest, keeping up to `cap` per query, with
    // `tile` panels read at a time. Returns the number of candidates of the first `nReal` queries
    // (collect() fetches them), or -1 when the kernel's memory cannot hold the block.
    search(leftAddress, nq, nReal, slackAddress, k, cap, tile) {
      const d = features;
      const nPanels = trainBytes / (d * 32);
      const at = {};
      let end = SCRATCH_BYTES + trainBytes;
      for (const [name, bytes] of [["left", nq * d * 4], ["slack", nq * 8], ["state", nq * 16],
        ["heap", nq * k * 4], ["rows", nq * cap * 4], ["scores", nq * cap * 4], ["counts", nq * 4]]) {
        at[name] = end;
        end = align(end + bytes);
      }
      if (!reserve(end)) return -1;
      const memory = kernel.memory.buffer;
      copy(memory, at.left, pythonMemory(), leftAddress, nq * d * 4);
      copy(memory, at.slack, pythonMemory(), slackAddress, nq * 8);
      kernel.search(SCRATCH_BYTES, nPanels, d, at.left, nq, tile, k, cap, at.slack, at.state, at.heap,
        at.rows, at.scores);
      const total = kernel.finish(nReal, at.counts);
      found = { rows: at.rows, counts: at.counts, total, nReal };
      return total;
    },

    // Copies the last search's candidates (int32 training rows, query by query) to rowsAddress and
    // each query's count (int32; -1: too many ties to keep, search it again) to countsAddress.
    collect(rowsAddress, countsAddress) {
      const memory = kernel.memory.buffer;
      copy(pythonMemory(), rowsAddress, memory, found.rows, found.total * 4);
      copy(pythonMemory(), countsAddress, memory, found.counts, found.nReal * 4);
    },
  };
}
