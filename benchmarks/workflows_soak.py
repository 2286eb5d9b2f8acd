"""The memory soak: trainings in a row in the page, models in turn, the WebAssembly heap after each."""

from benchmarks.soak_native import SOAK_MODELS  # (the same steps natively)
from benchmarks.workflows_page import click_and_time, since_click, time_model_import


def heap_mb(page):
    return page.evaluate("""async () => {
        const { python } = await import(new URL("js/python.js", location.href).href);
        return (await python.call("memory", {})).heap_bytes; }""") / 2 ** 20


def cancel_a_training(page, model):
    """Start training `model`, press Cancel once it is under way and wait for the page to settle: the
    seconds from the click to the data, the settings and the last result back in a new worker. (The job
    itself stops at the click: the worker running it is terminated there and then.)"""
    page.select_option("#model", model)
    page.click("#train")
    page.wait_for_selector("#cancel:not([hidden])", timeout=60_000)
    page.wait_for_timeout(1500)
    # The page ends a cancel reading "Training cancelled", not "Ready", once the data and the last result
    # are back in the new worker.
    return page.evaluate("""() => new Promise((resolve) => {
        const status = document.getElementById("status");
        const clicked = performance.now();
        new MutationObserver((_, observer) => {
            if (!status.textContent.endsWith("cancelled")) return;
            observer.disconnect();
            resolve((performance.now() - clicked) / 1000);
        }).observe(status, { childList: true, characterData: true, subtree: true });
        document.getElementById("cancel").click();
    })""")


def import_shown_model(page, folder):
    """Export the model on screen and import the file back through the page's import control."""
    with page.expect_download(timeout=900_000) as info:
        page.click("#export-model")
    path = folder / info.value.suggested_filename
    info.value.save_as(path)
    since_click(page, 0)
    time_model_import(page, path)


def soak(page, runs, folder):
    """[(step, heap MB after it)] for `runs` trainings in a row, models in turn; after the third training
    its model is exported and imported, and after the sixth a k-NN training is cancelled."""
    page.select_option("#target", "label")
    steps = []
    for i in range(runs):
        model = SOAK_MODELS[i % len(SOAK_MODELS)]
        page.select_option("#model", model)
        seconds = click_and_time(page, "#train")
        step = f"{i + 1}: {model} {seconds:.1f} s"
        if i == 2:
            import_shown_model(page, folder)
            step += " + export/import"
        if i == 5:
            restored = cancel_a_training(page, "KNeighborsClassifier")
            step += f" + a k-NN training cancelled (new worker; data and last result back in {restored:.1f} s)"
        steps.append((step, heap_mb(page)))
        print(f"  {step}: heap {steps[-1][1]:.0f} MB", flush=True)
    return steps
