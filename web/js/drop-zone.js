// Files dragged onto the page: a visible drop zone while dragging, and a size limit checked before reading.

const MB = 1024 * 1024;

// A message saying why a file cannot be read, or "" when it can; `limits` are the shared upload limits.
export function fileProblem(file, limits) {
  if (!file) return "No file was chosen.";
  if (file.size > limits.max_bytes) {
    const mb = (file.size / MB).toFixed(1);
    return `${file.name} is ${mb} MB; the limit is ${Math.round(limits.max_bytes / MB)} MB. Use a smaller sample of the rows.`;
  }
  if (file.size === 0) return `${file.name} is empty (0 bytes): choose a CSV file with a header line and rows of data.`;
  return "";
}

function carriesFiles(event) {
  return Array.from(event.dataTransfer?.types || []).includes("Files");
}

// Makes the whole page a drop target; `zone` is the overlay shown while a file is over the page.
export function attachDropZone(target, zone, onFile) {
  let depth = 0;
  const show = (on) => { zone.hidden = !on; };
  target.addEventListener("dragenter", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    depth += 1;
    show(true);
  });
  target.addEventListener("dragover", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  });
  target.addEventListener("dragleave", () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) show(false);
  });
  target.addEventListener("drop", (event) => {
    event.preventDefault();
    depth = 0;
    show(false);
    const file = event.dataTransfer?.files?.[0];
    if (file) onFile(file);
  });
}
