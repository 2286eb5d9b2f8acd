// Keeps the session (the loaded data, including an uploaded file's bytes, its roles and whether a model
// was trained, and the run history) in this browser's IndexedDB, so a reload restores it. It never leaves
// the machine, and "Clear saved session" deletes it. Storage is an extra: if the browser refuses it,
// nothing breaks.

const DB_NAME = "pellucid";
const STORE = "session";
const KEY = "current";
const HISTORY_KEY = "history";  // apart from the data, so saving one run does not write an upload again

function openDb() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function withStore(mode, action) {
  const db = await openDb();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = action(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

async function save(key, value) {
  try {
    await withStore("readwrite", (store) => store.put(value, key));
  } catch {
    // Private windows may refuse storage; the page works without it.
  }
}

async function load(key) {
  try {
    return (await withStore("readonly", (store) => store.get(key))) || null;
  } catch {
    return null;
  }
}

export const saveSession = (session) => save(KEY, session);
export const loadSession = () => load(KEY);

// The run history (history.js): a list of plain entries, newest first.
export const saveHistory = (entries) => save(HISTORY_KEY, entries);
export const loadHistory = () => load(HISTORY_KEY);

export async function clearSession() {
  try {
    await withStore("readwrite", (store) => {
      store.delete(HISTORY_KEY);
      return store.delete(KEY);
    });
  } catch {
    // Nothing stored, nothing to clear.
  }
}
