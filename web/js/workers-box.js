// The Workers box (#leaderboard-workers, in the Compare panel): how many Python workers a pooled job uses,
// one setting for all of them (Compare learners, Tune, Train's folds under k-fold, permutation importance);
// 1: the page's own worker, as on one core.
import { byId } from "./dom.js";
import { largestPool, pool } from "./pool.js";
import { showNote } from "./work.js";

const box = byId("leaderboard-workers");

// When the browser refuses a worker memory the pool goes on with fewer: the box shows how many it has, and
// a note says why. Setting the box again asks for that many once more.
pool.onShrink = (count) => {
  box.value = String(count);
  showNote(`The browser refused memory for another Python worker, so the work goes on with ${count} `
    + `worker${count === 1 ? "" : "s"}. Fewer rows, or closing other tabs, leaves room for more.`);
};
box.addEventListener("change", () => pool.uncap());

// {count} when the box holds a whole number the memory budget allows, else {problem} saying what to fix.
export function workerCount() {
  const count = Number(box.value);
  const most = largestPool();
  if (Number.isInteger(count) && count >= 1 && count <= most) return { count };
  return { problem: `Workers must be a whole number from 1 to ${most} (each takes up to half a gigabyte of memory).` };
}
