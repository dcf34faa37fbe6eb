#!/usr/bin/env node
// `npm start`: builds the shop when the build is missing or older than the sources, then runs it.
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";

ensureBuild();
await import(path.resolve(import.meta.dirname, "../dist/server/main.js"));
