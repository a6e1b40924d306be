// Two builds of the same source: an IIFE for a <script> tag (window.KycLauncher) and an ES module.
import { build } from 'esbuild';

const common = {
  bundle: true,
  minify: true,
  target: 'es2020',
  conditions: ['source'],
  legalComments: 'none',
  logLevel: 'warning',
};

await build({ ...common, entryPoints: ['src/global.ts'], format: 'iife', outfile: 'dist/launcher.js' });
await build({ ...common, entryPoints: ['src/index.ts'], format: 'esm', outfile: 'dist/launcher.mjs' });
