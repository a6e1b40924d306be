import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { SuiteResult } from '../run.js';
import { repoRoot, startNodeProcess } from './server-process.js';

/** Gzipped JavaScript the browser actually loads to show the entry route /demo (measured in Chromium). */
export async function entryRouteJavaScript(): Promise<SuiteResult> {
  const product = await startNodeProcess(path.join(repoRoot, 'apps/server/dist/main.js'), '/readyz');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const scripts: Array<{ name: string; raw: number; gzip: number }> = [];
  try {
    const page = await browser.newPage();
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return;
      const body = await response.body();
      scripts.push({ name: new URL(response.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    });
    await page.goto(`${product.url}/demo`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'EMPEZAR' }).waitFor();
  } finally {
    await browser.close();
    await product.stop();
  }
  const total = scripts.reduce((sum, script) => sum + script.gzip, 0);
  // The whole flow: every script of the build, each gzipped on its own as the server would send it.
  const assets = path.join(repoRoot, 'apps/web/dist/assets');
  const built = readdirSync(assets).filter((name) => name.endsWith('.js'));
  const flow = built.reduce((sum, name) => sum + gzipSync(readFileSync(path.join(assets, name)), { level: 9 }).length, 0);
  return {
    title: 'JavaScript loaded by the entry route /demo (gzip -9 of each script the browser fetched)',
    lines: [
      '| script | raw KB | gzip KB |',
      '|---|---|---|',
      ...scripts.map((s) => `| ${s.name} | ${(s.raw / 1024).toFixed(1)} | ${(s.gzip / 1024).toFixed(1)} |`),
      '',
      `Total: **${(total / 1024).toFixed(1)} KB gzipped** (target ≤ 40 KB).`,
      `Whole flow (all ${built.length} scripts of apps/web/dist): **${(flow / 1024).toFixed(1)} KB gzipped** (target ≤ 100 KB).`,
    ],
  };
}
