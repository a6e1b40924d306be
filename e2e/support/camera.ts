import { copyFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildDocument, pngToY4m, type DocumentFixture } from '@kyc/fixtures';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { expect } from 'vitest';

/** A picture centred on a dark table at 80% of a 1280x720 frame, as a phone camera would see it, as y4m. */
export async function cameraFrame(image: string | Buffer, out: string): Promise<void> {
  const card = await sharp(image).resize({ height: 576 }).toBuffer();
  const framed = out.replace(/\.y4m$/, '.png');
  await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#141414' } })
    .composite([{ input: card, gravity: 'centre' }])
    .png()
    .toFile(framed);
  await pngToY4m(framed, out, { width: 1280, height: 720, seconds: 1, fps: 10 });
}

/** A generated INE valid (or expired) at today's date, as the browser journeys show it to the camera. */
export function ineOfToday(index: number, seed: string, expired: boolean): Promise<DocumentFixture> {
  const today = new Date();
  return buildDocument('ine', index, { seed, referenceDate: { y: today.getUTCFullYear(), m: today.getUTCMonth() + 1, d: today.getUTCDate() }, expired });
}

/**
 * Each side of a generated card as a fake-camera clip in `work` (ine-<side>.png and <side>.y4m); `alter` may change a
 * side's picture first (a sticker over a field).
 */
export async function cardOnCamera(work: string, card: DocumentFixture, alter: (side: string, png: Buffer) => Promise<Buffer> = async (_side, png) => png): Promise<{ front: string; back: string }> {
  const clips = { front: '', back: '' };
  for (const side of card.sides) {
    const file = path.join(work, `ine-${side.side}.png`);
    await writeFile(file, await alter(side.side, side.png));
    clips[side.side as 'front' | 'back'] = path.join(work, `${side.side}.y4m`);
    await cameraFrame(file, clips[side.side as 'front' | 'back']);
  }
  return clips;
}

/** Chromium reopens the fake-camera file whenever the flow reopens the camera: swap it atomically. */
export async function showOnCamera(camera: string, y4m: string): Promise<void> {
  const staged = path.join(path.dirname(camera), 'staged.y4m');
  await copyFile(y4m, staged);
  await rename(staged, camera);
}

/** Capture, crop and confirm one side on /identificacion, up to the analysis overlay. */
export async function captureSide(page: Page, label: 'CAPTURAR FRENTE' | 'CAPTURAR REVERSO'): Promise<void> {
  const capture = page.getByRole('button', { name: label });
  await expect.poll(() => capture.isEnabled(), { timeout: 20_000 }).toBe(true);
  await capture.click();
  await page.getByRole('heading', { name: 'Ajusta tu identificación/comprobante' }).waitFor({ timeout: 20_000 });
  await page.getByRole('button', { name: 'AJUSTE LISTO' }).click();
  await page.getByRole('heading', { name: 'Revisa tu captura' }).waitFor();
  await page.getByRole('checkbox', { name: 'Confirmo que la captura es clara y los datos legibles.' }).check();
  await page.getByRole('button', { name: 'GUARDAR' }).click();
  await page.getByRole('heading', { name: /Analizando/ }).waitFor();
}

/** Opens the entry page of a grantor key and waits until its session has started (EMPEZAR enabled). */
export async function openEntry(page: Page, entryUrl: string): Promise<Locator> {
  await page.goto(entryUrl);
  const start = page.getByRole('button', { name: 'EMPEZAR' });
  await expect.poll(() => start.isEnabled()).toBe(true);
  return start;
}

/** From the entry page of a grantor key to the ID camera (consent accepted, intro passed). */
export async function startIdCapture(page: Page, entryUrl: string): Promise<void> {
  await (await openEntry(page, entryUrl)).click();
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'CAPTURAR IDENTIFICACIÓN' }).click();
  await page.getByRole('heading', { name: 'Tómale una foto al frente de tu identificación' }).waitFor();
  await page.getByRole('button', { name: 'CONTINUAR' }).click();
}
