// Colours shared by every view, so a class has the same colour in the tree, the boundary and the legend.
export const CLASS_COLOURS = ["#3b6fd8", "#e07b22", "#2f9e5b", "#c23b5a", "#7b52c7", "#8c6d31", "#d04ea8", "#5b6770"];

export function classColour(index) {
  return CLASS_COLOURS[index % CLASS_COLOURS.length];
}
