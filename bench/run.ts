// `npm run bench`: runs every suite (or those named on the command line), prints the figures and appends them
// to bench/RESULTS.md. Figures are measurements, never pass/fail assertions.
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { grantorParamsThroughput } from './suites/grantor-params.js';
import { entryRouteJavaScript } from './suites/entry-js.js';
import { postalCatalogue } from './suites/postal.js';
import { ocrAccuracy } from './suites/ocr.js';
import { launcherSize } from './suites/launcher.js';
import { resultsLatency } from './suites/results.js';
import { proofReading } from './suites/proof.js';
import { hologramCalibration } from './suites/hologram.js';
import { faceVideo } from './suites/face.js';
import { faceReal } from './suites/face-real.js';
import { maskCheck } from './suites/mask.js';
import { wholeJourney } from './suites/journey.js';
import { speechRecognition } from './suites/speech.js';
import { realDocuments } from './suites/real.js';
import { issuerSpecimens } from './suites/specimens.js';
import { livenessAttacks } from './suites/liveness.js';
import { scaleOut } from './suites/scale.js';
import { consoleList } from './suites/console.js';

export interface SuiteResult {
  title: string;
  lines: string[];
}

const suites: Record<string, () => Promise<SuiteResult>> = {
  'grantor-params': grantorParamsThroughput,
  'entry-js': entryRouteJavaScript,
  postal: postalCatalogue,
  ocr: ocrAccuracy,
  launcher: launcherSize,
  results: resultsLatency,
  proof: proofReading,
  hologram: hologramCalibration,
  face: faceVideo,
  'face-real': faceReal,
  mask: maskCheck,
  journey: wholeJourney,
  speech: speechRecognition,
  real: realDocuments,
  specimens: issuerSpecimens,
  liveness: livenessAttacks,
  scale: scaleOut,
  console: consoleList,
};

const here = path.dirname(fileURLToPath(import.meta.url));
const resultsFile = path.join(here, 'RESULTS.md');
const selected = process.argv.slice(2).filter((name) => !name.startsWith('-'));
const names = selected.length > 0 ? selected : Object.keys(suites);

const header = `\n## ${new Date().toISOString()} — ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}\n`;
const sections: string[] = [header];
for (const name of names) {
  const suite = suites[name];
  if (!suite) throw new Error(`unknown bench suite ${name}; known: ${Object.keys(suites).join(', ')}`);
  console.log(`\n# ${name}`);
  const result = await suite();
  const text = [`### ${result.title}`, ...result.lines, ''].join('\n');
  console.log(text);
  sections.push(text);
}
if (!existsSync(resultsFile)) writeFileSync(resultsFile, '# Bench results\n\nAppended by `npm run bench`; newest last.\n');
appendFileSync(resultsFile, sections.join('\n'));
console.log(`\nAppended to ${path.relative(process.cwd(), resultsFile)}`);
