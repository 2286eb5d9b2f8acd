"""One learner's workflow in the page: Train, the boundary, the twin's fit, importance, exports and import."""

from benchmarks.workflows_importance import importance_in_page, importance_pair
from benchmarks.workflows_page import (best, boundary_predicted_and_drawn, click_and_time, since_click,
                                       time_download, time_model_import, worker_call)


def run_learner(page, learner, repeats, csv_path, importance=False):
    """Times of one learner's Train, exports, import and boundary (best of `repeats`)."""
    page.select_option("#model", learner["name"])
    if learner["task"] in ("classification",):
        page.select_option("#target", "label")
    elif learner["task"] == "regression":
        page.select_option("#target", "x1")
    row = {"name": learner["name"], "task": learner["task"]}
    if page.is_visible("#row-limit-sample"):  # a learner with a row limit (max_rows): train on its sample
        page.check("#row-limit-sample")
        row["sample_rows"] = learner["max_rows"]
    trains = []
    for _ in range(repeats):
        trains.append(click_and_time(page, "#train"))
    row["train_s"] = best(trains)
    result_ok = page.evaluate("() => !document.getElementById('result-area').hidden")
    row["shown"] = result_ok
    if not result_ok:
        row["message"] = page.text_content("#message")
        return row
    model_id = page.evaluate("""async () => {
        const { store } = await import(new URL("js/store.js", location.href).href);
        return store.get().result.model_id; }""")
    # The boundary and the comparison first: importing a model (below) shows it in place of the trained one,
    # which the session may then let go of.
    if learner["task"] == "classification" or "boundary" in learner["capabilities"]:
        # A regressor predicts x1, so its boundary is drawn over two of its features.
        x, y = ("x2", "x3") if learner["task"] == "regression" else ("x1", "x2")
        times = [boundary_predicted_and_drawn(page, {"model_id": model_id, "x": x, "y": y})
                 for _ in range(repeats)]
        row["boundary_ms"] = 1000 * best(call + draw for call, draw in times)
        row["boundary_draw_ms"] = 1000 * best(draw for _, draw in times)
    try:
        cmp = worker_call(page, "check_twin", {"model_id": model_id})[1]
        fit = cmp.get("fit_seconds") or {}
        row["pellucid_fit_s"], row["sklearn_fit_s"] = fit.get("pellucid"), fit.get("sklearn")
    except Exception as exc:  # no twin, or scikit-learn could not load: said in the table
        row["sklearn_note"] = str(exc).splitlines()[0][:80]
    if importance and learner["task"] in ("classification", "regression"):
        times = []
        for i in range(repeats):
            if i:  # the page keeps a model's importance once computed: a new model for each timing
                click_and_time(page, "#train")
            times.append(importance_in_page(page))
        row["importance_s"] = best(times)
        pair = importance_pair(page, learner["name"], "label" if learner["task"] == "classification" else "x1",
                               csv_path.name) if "KNeighbors" in learner["name"] else {}
        row["importance_pellucid_s"], row["importance_sklearn_s"] = pair.get("pellucid_s"), pair.get("sklearn_s")
        model_id = page.evaluate("""async () => {
            const { store } = await import(new URL("js/store.js", location.href).href);
            return store.get().result.model_id; }""")
    exports, sizes = [], []
    for _ in range(repeats):
        seconds, size, _ = time_download(page, "#export-predictions")
        since_click(page, 0)
        exports.append(seconds)
        sizes.append(size)
    row["export_predictions_s"], row["export_bytes"] = best(exports), sizes[-1]
    model_exports = []
    for _ in range(repeats):
        seconds, size, model_file = time_download(page, "#export-model")
        since_click(page, 0)
        model_exports.append(seconds)
    row["export_model_s"], row["model_bytes"] = best(model_exports), size
    # Last: the imported model takes the trained one's place on screen.
    row["import_model_s"] = best(time_model_import(page, model_file) for _ in range(repeats))
    return row
