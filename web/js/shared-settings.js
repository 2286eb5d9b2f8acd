// What Python and the page share (the default split, the folds' range, missing-value markers, column
// kinds, the upload limits), defined once in pellucid.core.settings and written by the build to
// settings.json. The page reads it at start, before Python is ready.

export async function loadSharedSettings() {
  const response = await fetch(new URL("../settings.json", import.meta.url));
  if (!response.ok) throw new Error(`settings.json could not be read (HTTP ${response.status}); rebuild the site.`);
  return response.json();
}
