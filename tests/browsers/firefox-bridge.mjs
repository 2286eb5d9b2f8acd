// Drives Debian's Firefox ESR for the browser smoke test (tests/e2e/test_smoke_browsers.py), which
// sends one JSON command a line on stdin and reads one JSON reply a line on stdout:
//   {"goto": url}                -> {"ok": null}
//   {"run": body, "arg": value}  -> {"ok": value}   (body is an async function's body, given `arg`)
//   {"close": true}              -> {"ok": null} and the process ends
// A command may name a tab ("tab": "second"): a tab not seen before opens with its first command, and
// {"tab": name, "closeTab": true} closes it. Without a name, commands go to the first tab.
// puppeteer-core speaks WebDriver BiDi to Firefox itself: no separate driver, and no browser download.
import { createInterface } from "node:readline";
import puppeteer from "puppeteer-core";

const executablePath = process.argv[2] || "/usr/bin/firefox-esr";
const browser = await puppeteer.launch({ browser: "firefox", executablePath, headless: true,
                                         protocol: "webDriverBiDi", acceptInsecureCerts: false });
const tabs = new Map();

async function openTab(name) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  page.on("pageerror", (error) => reply({ event: "pageerror", text: `${name}: ${error}` }));
  tabs.set(name, page);
  return page;
}

await openTab("main");
console.log(JSON.stringify({ ok: (await browser.version()) }));

function reply(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

async function handle(command) {
  const name = command.tab ?? "main";
  const page = tabs.get(name) ?? (await openTab(name));
  if (command.closeTab) {
    tabs.delete(name);
    await page.close();
    return null;
  }
  if (command.goto) {
    await page.goto(command.goto, { waitUntil: "load" });
    return null;
  }
  if (command.run !== undefined) {
    const source = `(async (arg) => { ${command.run} })(${JSON.stringify(command.arg ?? null)})`;
    return await page.evaluate(source);
  }
  if (command.close) {
    await browser.close();
    return null;
  }
  throw new Error(`unknown command ${JSON.stringify(command)}`);
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const command = JSON.parse(line);
  try {
    reply({ ok: (await handle(command)) ?? null });
  } catch (error) {
    reply({ error: String(error?.stack || error) });
  }
  if (command.close) process.exit(0);
}
