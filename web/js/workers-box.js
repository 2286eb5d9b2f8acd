// The Workers box (#leaderboard-workers, in the Compare panel): how many Python workers a pooled job uses,
// one setting for all of them (Compare learners, Tune, Train's folds under k-fold, permutation importance);
// 1: the page's own worker, as on one core.
import { byId } from "./dom.js";
import { largestPool } from "./pool.js";

const box = byId("leaderboard-workers");

// {count} when the box holds a whole number the memory budget allows, else {problem} saying what to fix.
export function workerCount() {
  const count = Number(box.value);
  const most = largestPool();
  if (Number.isInteger(count) && count >= 1 && count <= most) return { count };
  return { problem: `Workers must be a whole number from 1 to ${most} (each takes up to half a gigabyte of memory).` };
}
