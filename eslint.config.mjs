// eslint, run by `python3 build.py lint` and before the tests: the recommended rules on the page's
// JavaScript (web/js, the WebAssembly kernels' loaders in web/wasm, the service worker) and the Node.js scripts the tests run.
// The page's modules run in the window or in the Python worker, so both sets of globals are known.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["dist/**", "node_modules/**", ".cache/**", ".venv*/**"] },
  {
    files: ["web/js/**/*.js", "web/wasm/*.mjs"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.worker },
    },
  },
  {
    // Not a module: build.py writes it into index.html's head as the one inline script.
    files: ["web/js/boot.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    // The service worker, a classic script; build.py fills in its precache list (the placeholder).
    files: ["web/sw.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.serviceworker, __PRECACHE_FILES__: "readonly" },
    },
  },
  {
    files: ["tests/**/*.mjs"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node },
    },
  },
];
