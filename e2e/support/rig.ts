import { copyFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { startServer, type RunningServer } from './server.js';

export interface CameraRig {
  server: RunningServer;
  browser: Browser;
  /** The fake-camera file Chromium reads (swap it with showOnCamera). */
  camera: string;
}

/** The built server and Chromium whose fake camera reads `work/camera.y4m`, first showing `firstY4m`. */
export async function startCameraRig(work: string, firstY4m: string): Promise<CameraRig> {
  const camera = path.join(work, 'camera.y4m');
  await copyFile(firstY4m, camera);
  const server = await startServer();
  try {
    return { server, browser: await launchBrowser({ videoFile: camera }), camera };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Closes what a test started (any part may be missing when its setup failed) and removes its work dir. */
export async function stopAll(parts: { browser?: Browser; server?: RunningServer; work?: string }): Promise<void> {
  await parts.browser?.close();
  await parts.server?.stop();
  if (parts.work) await rm(parts.work, { recursive: true, force: true });
}
