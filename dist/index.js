import { createRequire as __skillclimbCreateRequire } from 'node:module';
const require = __skillclimbCreateRequire(import.meta.url);
import {
  maskSecretInputs
} from "./chunks/chunk-7GRGTYEE.js";
import "./chunks/chunk-L5MOVZ75.js";

// src/action/run.ts
maskSecretInputs();
var version = true ? "0.1.0" : "development build";
process.stdout.write(`skillclimb ${version} (Node ${process.version})
`);
var { run } = await import("./chunks/runner-GFHNPEZY.js");
await run({ masked: true });
