#!/usr/bin/env node
// Checks the configured speech model on a recording: see engines/speech/asr-check.ts and README, "Spoken code".
import { runAsrCheck } from '../engines/speech/asr-check.js';

process.exitCode = await runAsrCheck(process.argv.slice(2), {
  env: process.env,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
