import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { alignCodeWithCamera } from './code-timing.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const screenshotDir = path.resolve(here, '../artifacts/screenshots');

export const viewports = {
  phone: { width: 360, height: 640 },
  desktop: { width: 1280, height: 800 },
} as const;
export type ViewportName = keyof typeof viewports;

export interface FakeMedia {
  videoFile?: string;
  audioFile?: string;
}

/** Debian Chromium driven by playwright-core, with a fake camera and microphone (see shared/notes/stack-facts.md). */
export async function launchBrowser(media: FakeMedia = {}): Promise<Browser> {
  const args = [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    // WebRTC to the real-time media server on 127.0.0.1: Chromium ignores loopback ICE candidates otherwise.
    '--allow-loopback-in-peer-connection',
  ];
  if (media.videoFile) args.push(`--use-file-for-fake-video-capture=${media.videoFile}`);
  if (media.audioFile) args.push(`--use-file-for-fake-audio-capture=${media.audioFile}`);
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args });
}

export async function newPhoneOrDesktop(browser: Browser, name: ViewportName): Promise<BrowserContext> {
  const mobile = name === 'phone';
  const context = await browser.newContext({
    viewport: viewports[name],
    deviceScaleFactor: 1,
    isMobile: mobile,
    hasTouch: mobile,
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
  });
  // The face video's code reply is timed to the fake camera's file (the test-only fixed digit schedule).
  await alignCodeWithCamera(context);
  recordNetworkTrouble(context);
  return context;
}

const networkTrouble = new WeakMap<BrowserContext, string[]>();

/** The calls of a context that failed or were answered with an error, for a failing test to print. */
export function networkTroubleOf(context: BrowserContext): string[] {
  return networkTrouble.get(context) ?? [];
}

function recordNetworkTrouble(context: BrowserContext): void {
  const seen: string[] = [];
  networkTrouble.set(context, seen);
  const at = () => new Date().toISOString().slice(11, 23);
  context.on('requestfailed', (request) => seen.push(`${at()} ${request.method()} ${request.url()} failed: ${request.failure()?.errorText ?? '?'}`));
  context.on('response', (response) => {
    if (response.status() >= 400) seen.push(`${at()} ${response.request().method()} ${response.url()} → ${response.status()}`);
  });
}

/** A page in a fresh phone or desktop context that collects uncaught page errors (a test expects none). */
export async function newWatchedPage(browser: Browser, name: ViewportName): Promise<{ context: BrowserContext; page: Page; pageErrors: string[] }> {
  const context = await newPhoneOrDesktop(browser, name);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { context, page, pageErrors };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

/** axe-core on the current screen; returns serious and critical violations only. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}
