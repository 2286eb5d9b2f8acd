// Saving what the page made: a canvas as PNG, any blob or text as a downloaded file.

// The canvas as a PNG Blob (at its device-pixel size), or an Error if the browser cannot encode it.
export function canvasToPngBlob(canvas) {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("The picture could not be saved as PNG."))), "image/png");
  });
}

// Starts a download of `blob` named `filename` through a temporary <a download>; the URL is revoked after.
export function downloadBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn, once the click has handed the URL to the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return url;
}

export function downloadText(text, filename, mime = "text/plain") {
  return downloadBlob(new Blob([text], { type: `${mime};charset=utf-8` }), filename);
}

// Convenience for the export buttons: a canvas straight to a PNG download.
export async function downloadCanvas(canvas, filename) {
  return downloadBlob(await canvasToPngBlob(canvas), filename);
}
