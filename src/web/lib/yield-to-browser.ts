// Imported by the entry (main.tsx) between React DOM and the app. The entry is one file
// (vite.config.ts); this await splits its evaluation in two tasks, so a phone evaluates React DOM
// in one and the app's modules in the next, never holding the main thread for both (decision 032).
await new Promise((resolve) => setTimeout(resolve, 0));

export {};
