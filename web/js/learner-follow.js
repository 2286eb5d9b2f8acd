// The learner follows the target. Python says which tasks each column implies as a target (TableInfo's
// `target_tasks`: text is classes, numbers with fractions or of many values a quantity, a few whole numbers
// either) and which learner is each task's default (the models' `task_default`); the page applies that:
// - a model the page chose (the opening default) switches to the default of the target's task, with a note
//   saying why: it was the page's choice, so following the target keeps it right without asking;
// - a model the user chose stays (their choice is not undone behind their back), and the note offers the
//   switch with one click; Train would refuse the pair with an error pointing at the Model;
// - a target that can be either (0/1, ratings 1-5) says so and offers the other task's default.
import { byId } from "./dom.js";
import { store } from "./store.js";
import { chooseModel, chosenModel } from "./model-controls.js";
import { SUPERVISED } from "./model-panel.js";

const els = { note: byId("learner-note"), text: byId("learner-note-text"), switch: byId("learner-switch") };

function targetOf({ table, roles }) {
  return table?.columns.find((c) => roles[c] === "target") || null;
}

const defaultFor = (models, task) => models.find((m) => m.task === task && m.task_default);

// {target, implied: {tasks, reason}, model} when the chosen model predicts a target that implies a task; else null.
function situation(s) {
  const target = targetOf(s);
  const implied = target ? s.table?.target_tasks?.[target] : null;
  const model = chosenModel(s);
  return implied && SUPERVISED.includes(model?.task) ? { target, implied, model } : null;
}

// Switches a model the page chose when the target implies another task.
function follow(s) {
  const now = situation(s);
  if (!now || s.modelByUser || now.implied.tasks.includes(now.model.task)) return;
  const to = defaultFor(s.models, now.implied.tasks[0]);
  if (!to) return;
  chooseModel(to.name, {}, { byUser: false });
  store.set({ learnerSwitched: { from: now.model.label, to: to.name, target: now.target } });
}

let offered = null;  // the model the switch button chooses (a drawing's memory, not state)

function draw(s) {
  const now = situation(s);
  let text = "";
  offered = null;
  if (now && !now.implied.tasks.includes(now.model.task)) {
    offered = defaultFor(s.models, now.implied.tasks[0]);
    text = `${now.model.label} does ${now.model.task}, but ${now.implied.reason}.`;
  } else if (now && s.learnerSwitched?.target === now.target && s.learnerSwitched.to === now.model.name && !s.modelByUser) {
    text = `Switched from ${s.learnerSwitched.from} to ${now.model.label}: ${now.implied.reason}.`;
  } else if (now && now.implied.tasks.length > 1) {
    offered = defaultFor(s.models, now.implied.tasks.find((task) => task !== now.model.task));
    text = `${now.implied.reason.replace(/^./, (c) => c.toUpperCase())}; ${now.model.label} treats them as ${now.model.task === "classification" ? "classes" : "a quantity"}.`;
  }
  els.note.hidden = !text;
  els.text.textContent = text;
  els.switch.hidden = !offered;
  els.switch.textContent = offered ? `Use ${offered.label} (${offered.task})` : "";
}

export function mountLearnerFollow() {
  store.subscribe(["table", "roles", "models", "model", "modelByUser"], follow);
  store.subscribe(["table", "roles", "models", "model", "modelByUser", "learnerSwitched"], draw);
  els.switch.addEventListener("click", () => offered && chooseModel(offered.name));
}
