// A pool of extra Python workers for work that splits into independent pieces (Compare learners: one
// learner's folds a piece), so a machine with several cores uses them. Each pool worker is another copy of
// worker.js, started from the same memory snapshot as the page's own; it answers commands and nothing else:
// the page's session (the menus, the saved data, the model shown) stays with the page's worker. A pool
// worker is given the page's data once per table (the same load replayed: data-source.js) and holds
// nothing the page needs afterwards, so stopping one loses no work of the user's.
// Workers start on the first pooled job and are kept for the next; Cancel terminates them all.
import { PyClient, PythonError } from "./pyclient.js";
import { loadSource } from "./data-source.js";

const WORKER_URL = new URL("./worker.js", import.meta.url);

// The memory one more worker takes: Pyodide's heap measured in a worker after loading a 50,000 x 20 table,
// 86 MB, and in a pool worker after comparing six learners on it in 5 folds (naive Bayes, logistic
// regression, a tree, k-NN, the perceptron), 124 MB (benchmarks/pool.py); budgeted at 512 MB, as a heap only
// grows and an ensemble's trees or a larger table take more. The pool takes at most half the device's
// memory (navigator.deviceMemory, which browsers round down to a power of two and may cap; 4 GB where the
// browser does not say), leaving the rest to the page's own worker, the browser and the other tabs.
const HEAP_PER_WORKER = 512 * 2 ** 20;
const DEVICE_SHARE = 0.5;

// The most workers the memory budget allows, at least 1.
export function largestPool() {
  const device = (navigator.deviceMemory || 4) * 2 ** 30;
  return Math.max(1, Math.floor((device * DEVICE_SHARE) / HEAP_PER_WORKER));
}

// The size offered at first: one worker a core, less the core the page's own worker and the browser use,
// within the memory budget. 1 means no pool: the page's worker does the work, as on a single core.
export function defaultPoolSize() {
  return Math.max(1, Math.min((navigator.hardwareConcurrency || 1) - 1, largestPool()));
}

// One pool worker: its client, and the page's data loaded into it (the source it came from and its id).
class PoolWorker {
  constructor() {
    // A worker that raised an error nothing caught may be gone: replaced before its next piece (a call it
    // was answering is failed as "crashed", and its piece run again: see runPiece).
    this.dead = false;
    this.client = new PyClient(WORKER_URL, { onCrash: () => { this.dead = true; } });
    this.source = null;
    this.tableId = null;
  }

  // The page's data, loaded here unless it already is (a source object is replaced whenever it changes).
  async tableFor(source, limits) {
    if (this.source !== source) {
      const info = await loadSource(this.client, source, limits);
      [this.source, this.tableId] = [source, info.table_id];
    }
    return this.tableId;
  }

  stop(reason) {
    this.client.worker.terminate();
    this.client.failPending("cancelled", "Cancelled", reason);
  }
}

class Pool {
  constructor() {
    this.workers = [];
    this.jobs = 0;  // pooled calls under way: Cancel stops the pool while there are any
  }

  get busy() {
    return this.jobs > 0;
  }

  // Grows the pool to `size` workers (started now, booting while the first pieces wait), never shrinks it
  // while the workers may still be used: a smaller job uses the first `size` of them.
  ensure(size) {
    while (this.workers.length < size) this.workers.push(new PoolWorker());
    return this.workers.slice(0, size);
  }

  // Runs every piece ({label, cmd, args}) on `size` workers, each piece's args given the worker's
  // `table_id` for the page's data (`source`, within `limits`); resolves to their results in the pieces'
  // order. `onDone(done, total)` after each piece. A worker that dies is replaced and its piece run
  // again, once; a second death, or any failure, rejects with the first error.
  async map(pieces, { size, source, limits, onDone = () => {} }) {
    this.jobs++;
    try {
      const results = new Array(pieces.length);
      const queue = pieces.map((piece, index) => ({ ...piece, index, tries: 0 }));
      let done = 0;
      const drain = async (slot) => {
        try {
          for (let piece = queue.shift(); piece; piece = queue.shift()) {
            results[piece.index] = await this.runPiece(slot, piece, source, limits);
            onDone(++done, pieces.length);
          }
        } catch (error) {
          queue.length = 0;  // the job has failed: the other workers take no more of its pieces
          throw error;
        }
      };
      const lanes = this.ensure(Math.min(size, pieces.length)).map((_, slot) => drain(slot));
      await Promise.all(lanes);
      return results;
    } finally {
      this.jobs--;
    }
  }

  // One call on the first worker (a merge that needs no table); `label` names the work should it die.
  async call(cmd, args, label) {
    this.jobs++;
    try {
      if (this.ensure(1)[0].dead) this.replace(0);
      return await this.workers[0].client.call(cmd, args);
    } catch (error) {
      if (error.code !== "crashed") throw error;
      this.workers[0].dead = true;
      throw stoppedWhile(label, error);
    } finally {
      this.jobs--;
    }
  }

  async runPiece(slot, piece, source, limits) {
    if (this.workers[slot].dead) this.replace(slot);
    const worker = this.workers[slot];
    try {
      const tableId = await worker.tableFor(source, limits);
      return await worker.client.call(piece.cmd, { ...piece.args, table_id: tableId });
    } catch (error) {
      if (error.code !== "crashed" || this.workers[slot] !== worker) throw error;
      worker.stop("Stopped unexpectedly.");
      worker.dead = true;  // replaced when its slot is next used: now, to run the piece again, or by the next job
      if (++piece.tries > 1) {
        throw stoppedWhile(piece.label, error, `It stopped twice on it: try fewer workers or fewer rows, or leave `
          + `${piece.label} out.`);
      }
      return this.runPiece(slot, piece, source, limits);
    }
  }

  replace(slot) {
    this.workers[slot].stop("Replaced.");
    this.workers[slot] = new PoolWorker();
  }

  // Stops every pool worker at once (terminated: nothing of the page's lived there) and fails what they were
  // doing as cancelled; the next pooled job starts new ones.
  cancel() {
    for (const worker of this.workers.splice(0)) worker.stop("Stopped.");
  }
}

// The message for a pool worker that died while working on `what`; said as a refused input is (work.js,
// showError), for the user to read and act on, the page's own worker and data being untouched.
function stoppedWhile(what, error, advice = "Try fewer workers or fewer rows.") {
  return new PythonError({ code: "data_error", type: "WorkerCrashed",
    message: `A Python worker of the pool stopped while working on ${what} (${error.message}). ${advice}` });
}

export const pool = new Pool();
