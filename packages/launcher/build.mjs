// Two builds of the same source, an IIFE for a <script> tag (window.KycLauncher) and an ES module, and one bundled
// declaration file for TypeScript integrators.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { generateDtsBundle } from 'dts-bundle-generator';

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

const [types] = generateDtsBundle([{ filePath: 'src/index.ts', output: { noBanner: true } }], { preferredConfigPath: 'tsconfig.json' });
writeFileSync('dist/launcher.d.ts', types);
