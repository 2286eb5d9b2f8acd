// A pool of extra Python workers for work that splits into independent pieces (Compare learners: one
// learner's folds a piece), so a machine with several cores uses them. Each pool worker is another copy of
// worker.js, started from the same memory snapshot as the page's own; it answers commands and nothing else:
// the page's session (the menus, the saved data, the model shown) stays with the page's worker. A pool
// worker is given the page's data once per table (the same load replayed: data-source.js) and holds
// nothing the page needs afterwards, so stopping one loses no work of the user's.
// Workers start on the first pooled job and are kept for the next; Cancel terminates them all. A worker the
// browser refuses memory is not replaced: the pool shrinks to the workers it has, which take over its piece.
import { PyClient, PythonError } from "./pyclient.js";
import { loadSource } from "./data-source.js";
import { store } from "./store.js";

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
    this.retired = false;  // refused memory: stopped for good, its slot dropped after the job (Pool.retire)
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

// Whether `error` says the browser refused a worker memory: Python's MemoryError, or a worker that died of it
// (WebAssembly's "could not allocate memory", an out-of-memory abort).
export function refusedMemory(error) {
  return error.type === "MemoryError" || (error.code === "crashed" && /memory|\bOOM\b/i.test(error.message));
}

class Pool {
  constructor() {
    this.workers = [];
    this.jobs = 0;  // pooled calls under way: Cancel stops the pool while there are any
    this.cap = Infinity;  // the most workers the browser gave memory to, once it has refused one
    this.onShrink = () => {};  // told the pool's new size when it shrinks (workers-box.js says so on the page)
  }

  // Lifts the cap a refusal of memory set: the next job may start as many workers as it asks for again.
  uncap() {
    this.cap = Infinity;
  }

  get busy() {
    return this.jobs > 0;
  }

  // Grows the pool to `size` workers (started now, booting while the first pieces wait), never shrinks it
  // while the workers may still be used: a smaller job uses the first `size` of them.
  ensure(size) {
    const wanted = Math.min(size, this.cap);
    while (this.workers.length < wanted) this.workers.push(new PoolWorker());
    return this.workers.slice(0, wanted);
  }

  // Runs every piece ({label, cmd, args}) on `size` workers, each piece's args given the worker's
  // `table_id` for the page's data (`source`, within `limits`); resolves to their results in the pieces'
  // order. `onDone(done, total, piece)` after each piece (the piece just done). A worker that dies is
  // replaced and its piece run again, once; a second death, or any failure, rejects with the first error.
  async map(pieces, { size, source, limits, onDone = () => {} }) {
    this.jobs++;
    try {
      const results = new Array(pieces.length);
      const queue = pieces.map((piece, index) => ({ ...piece, index, tries: 0 }));
      let done = 0;
      const slots = this.ensure(Math.min(size, pieces.length));
      let live = slots.length;  // lanes still taking pieces
      const drain = async (slot) => {
        for (let piece = queue.shift(); piece; piece = queue.shift()) {
          try {
            results[piece.index] = await this.runPiece(slot, piece, source, limits);
          } catch (error) {
            if (refusedMemory(error) && live > 1) {  // the others go on without this worker, its piece first
              queue.unshift(piece);
              this.retire(slot, --live);
              return;
            }
            queue.length = 0;  // the job has failed: the other workers take no more of its pieces
            throw refusedMemory(error) ? stoppedWhile(piece.label, error, "The browser refused it memory: try "
              + "fewer workers or fewer rows.") : error;
          }
          onDone(++done, pieces.length, pieces[piece.index]);
        }
        live--;
      };
      await Promise.all(slots.map((_, slot) => drain(slot)));
      return results;
    } finally {
      this.workers = this.workers.filter((worker) => !worker.retired);
      this.jobs--;
    }
  }

  // Stops the worker of `slot`, which the browser refused memory, for good: the pool keeps `left` workers
  // from now on (its slot is dropped once the job is over, so the other lanes keep their slots meanwhile).
  retire(slot, left) {
    const worker = this.workers[slot];
    worker.stop("Refused memory.");
    worker.retired = true;
    this.cap = Math.min(this.cap, left);
    this.onShrink(this.cap);
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
      if (error.code !== "crashed" || this.workers[slot] !== worker || refusedMemory(error)) throw error;
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

// What every pooled job does: `pieces` run on `size` workers given the page's data (the loaded source, within
// the page's limits); `counted(done, total, piece)` now, for the bar to start, and after each piece.
export function mapOnPageData(pieces, size, counted) {
  const { source, shared } = store.get();
  counted(0, pieces.length, null);
  return pool.map(pieces, { size, source, limits: shared.limits, onDone: counted });
}
