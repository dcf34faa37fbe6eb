// Imported by the entry (main.tsx) between React DOM and the app. The entry's chunk holds React DOM
// and the app's first modules together (vite.config.ts), and a module graph without a top-level
// await is evaluated in one task; this await splits it in two, so a phone evaluates React DOM in
// one and the app's modules in the next, never holding the main thread for both (decision 032).
await new Promise((resolve) => setTimeout(resolve, 0));

export {};
