// Foundry VTT stood in for (tests/test_js_target.py): the globals a module's script uses,
// the script loaded as Foundry loads an entry of module.json's "esmodules", then "ready" fired.
const hooks = new Map();
globalThis.Hooks = {
  once(name, fn) {
    hooks.set(name, [...(hooks.get(name) ?? []), fn]);
  },
  on(name, fn) {
    hooks.set(name, [...(hooks.get(name) ?? []), fn]);
  },
};
globalThis.ui = { notifications: { info: (text) => console.log(text), error: (text) => console.log(text) } };
globalThis.game = { modules: new Map() };
await import("SCRIPT");
for (const fn of hooks.get("ready") ?? []) await fn();
