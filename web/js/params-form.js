// Builds labelled hyperparameter controls from the rules the Python side describes, and reads them back.

function controlFor(param) {
  if (param.kind === "choice") {
    const select = document.createElement("select");
    const options = param.none_ok ? [null, ...param.options] : param.options;
    for (const option of options) {
      const item = document.createElement("option");
      // None is offered as "none" and read back as null.
      item.value = option === null ? "" : String(option);
      item.textContent = option === null ? "none" : String(option);
      select.append(item);
    }
    select.value = param.default === null ? "" : String(param.default);
    return select;
  }
  if (param.kind === "bool") {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = Boolean(param.default);
    return box;
  }
  const input = document.createElement("input");
  input.type = "number";
  if (param.kind === "int") input.step = "1";
  else input.step = "any";
  if (param.low !== null && param.low !== undefined) input.min = String(param.low);
  if (param.high !== null && param.high !== undefined) input.max = String(param.high);
  input.value = param.default === null ? "" : String(param.default);
  if (param.none_ok) input.placeholder = "none";
  return input;
}

export function renderParams(container, params) {
  container.replaceChildren();
  for (const param of params) {
    if (param.kind === "vector") continue;
    const field = document.createElement("div");
    field.className = "field";
    const id = `param-${param.name}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = param.name.replaceAll("_", " ");
    const control = controlFor(param);
    control.id = id;
    control.dataset.param = param.name;
    control.dataset.kind = param.kind;
    field.append(label, control);
    if (param.help) {
      const help = document.createElement("span");
      help.className = "help";
      help.textContent = param.help;
      field.append(help);
      control.setAttribute("aria-describedby", `${id}-help`);
      help.id = `${id}-help`;
    }
    container.append(field);
  }
}

// Reads the controls back into {name: value}; an empty number box means None (no limit).
export function readParams(container) {
  const values = {};
  for (const control of container.querySelectorAll("[data-param]")) {
    const { param, kind } = control.dataset;
    if (kind === "bool") values[param] = control.checked;
    else if (kind === "choice") values[param] = control.value === "" ? null : control.value;
    else if (control.value.trim() === "") values[param] = null;
    else values[param] = kind === "int" ? parseInt(control.value, 10) : parseFloat(control.value);
  }
  return values;
}
