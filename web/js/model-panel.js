// The model menu, grouped by family, and the chosen model's hyperparameter controls.
import { el, option } from "./dom.js";
import { renderParams, readParams, checkParams } from "./params-form.js";

export const SUPERVISED = ["classification", "regression"];

export function fillModels(select, models, chosen) {
  const groups = new Map();
  for (const m of models) {
    if (!groups.has(m.group)) groups.set(m.group, el("optgroup", { label: m.group }));
    groups.get(m.group).append(option(m.name, m.label));
  }
  select.replaceChildren(...groups.values());
  select.value = models.some((m) => m.name === chosen) ? chosen : models[0]?.name;
}

export function findModel(models, name) {
  return models.find((m) => m.name === name);
}

// Shows the controls for `model`, starting from `values` where they name its parameters.
export function showParams(container, model, values = {}) {
  renderParams(container, model ? model.params : [], values);
}

export { readParams, checkParams };
