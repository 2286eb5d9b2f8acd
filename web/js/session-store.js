// Keeps the session (the loaded data, including an uploaded file's bytes, its roles and whether a model
// was trained) in this browser's IndexedDB, so a reload restores it. It never leaves the machine, and
// "Clear saved session" deletes it. Storage is an extra: if the browser refuses it, nothing breaks.

const DB_NAME = "pellucid";
const STORE = "session";
const KEY = "current";

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

export async function saveSession(session) {
  try {
    await withStore("readwrite", (store) => store.put(session, KEY));
  } catch {
    // Private windows may refuse storage; the page works without it.
  }
}

export async function loadSession() {
  try {
    return (await withStore("readonly", (store) => store.get(KEY))) || null;
  } catch {
    return null;
  }
}

export async function clearSession() {
  try {
    await withStore("readwrite", (store) => store.delete(KEY));
  } catch {
    // Nothing stored, nothing to clear.
  }
}
