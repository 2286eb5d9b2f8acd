// Where the data came from, kept in the page so it can be loaded again into a fresh worker after a
// cancel: a built-in dataset (name + generator settings) or an uploaded file's bytes with the user's say
// on its first row (header: null lets the reader decide) and, for an Excel workbook, the sheet chosen
// (null: the first), plus the kind overrides applied on top. A pasted table is a file whose bytes are the
// pasted text (pasted: true), read by its own command so its errors point at the paste box.
// Missing values are no table-level edit: the preprocessing step imputes them on the training rows.

export const PASTED_NAME = "pasted table";

export function exampleSource(name, generator = {}) {
  return { type: "example", name, generator, kinds: {} };
}

export function fileSource(name, bytes, header = null) {
  return { type: "file", name, bytes, header, sheet: null, kinds: {} };
}

export function pastedSource(text) {
  return { ...fileSource(PASTED_NAME, new TextEncoder().encode(text).buffer), pasted: true };
}

// Loads the source into the worker and replays the edits; resolves to the final TableInfo.
// `limits` are the shared upload limits ({max_bytes, max_rows}); `onStep` is told what is happening,
// for the status line.
export async function loadSource(python, source, limits, onStep = () => {}) {
  let info;
  if (source.type === "example") {
    onStep(`Loading ${source.name}…`);
    info = await python.call("load_example", { name: source.name, ...source.generator });
  } else {
    onStep(`Reading ${source.name}…`);
    // The page keeps its own copy: the one sent is transferred (moved) to the worker.
    const copy = source.bytes.slice(0);
    const args = { path: copy, max_bytes: limits.max_bytes, max_rows: limits.max_rows, header: source.header ?? null };
    info = source.pasted
      ? await python.call("load_pasted", args, [copy])
      : await python.call("load_csv", { ...args, name: source.name, sheet: source.sheet ?? null }, [copy]);
  }
  for (const [column, kind] of Object.entries(source.kinds)) {
    if (info.columns.includes(column) && info.kinds[column] !== kind) {
      info = await python.call("set_kind", { table_id: info.table_id, column, kind });
    }
  }
  return info;
}
