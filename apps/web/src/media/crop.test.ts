import { describe, expect, it } from 'vitest';
import { cropPercentages, keyboardCrop, moveCrop, normaliseCrop, previewWindow, resizeCrop } from './crop';

const image = { width: 1280, height: 720 };
const crop = { x: 184, y: 72, width: 913, height: 576 };

describe('preview window (docs/flow.md §9 "capture preview scale 1.5")', () => {
  it('shows the crop enlarged 1.5 times around its centre, clipped to the image', () => {
    const window = previewWindow(image, crop, 1.5);
    expect(window.width).toBe(1280);
    expect(window.height).toBe(720);
    const small = { x: 500, y: 300, width: 200, height: 120 };
    expect(previewWindow(image, small, 1.5)).toEqual({ x: 450, y: 270, width: 300, height: 180 });
  });

  it('shifts the window back inside the image near an edge', () => {
    expect(previewWindow(image, { x: 0, y: 0, width: 200, height: 100 }, 1.5)).toEqual({ x: 0, y: 0, width: 300, height: 150 });
    expect(previewWindow(image, { x: 1180, y: 650, width: 100, height: 70 }, 1.5)).toEqual({ x: 1130, y: 615, width: 150, height: 105 });
  });
});

describe('crop rectangle', () => {
  const bounds = { x: 0, y: 0, width: 1000, height: 600 };
  const rect = { x: 100, y: 100, width: 600, height: 380 };

  it('moves as a whole and stops at the edges', () => {
    expect(moveCrop(rect, 50, -20, bounds)).toEqual({ x: 150, y: 80, width: 600, height: 380 });
    expect(moveCrop(rect, 5000, 5000, bounds)).toEqual({ x: 400, y: 220, width: 600, height: 380 });
    expect(moveCrop(rect, -5000, -5000, bounds)).toEqual({ x: 0, y: 0, width: 600, height: 380 });
  });

  it('resizes from a corner, the opposite corner fixed', () => {
    expect(resizeCrop(rect, 'se', 100, 50, bounds)).toEqual({ x: 100, y: 100, width: 700, height: 430 });
    expect(resizeCrop(rect, 'nw', -50, -100, bounds)).toEqual({ x: 50, y: 0, width: 650, height: 480 });
    expect(resizeCrop(rect, 'ne', 1000, 0, bounds)).toEqual({ x: 100, y: 100, width: 900, height: 380 });
    expect(resizeCrop(rect, 'sw', 0, 1000, bounds)).toEqual({ x: 100, y: 100, width: 600, height: 500 });
  });

  it("never gets smaller than 320x240 (the server's minimum) or 20% of a large window, nor turns inside out", () => {
    const shrunk = resizeCrop(rect, 'se', -5000, -5000, bounds);
    expect(shrunk).toEqual({ x: 100, y: 100, width: 320, height: 240 });
    const fromLeft = resizeCrop(rect, 'nw', 5000, 5000, bounds);
    expect(fromLeft.x + fromLeft.width).toBe(700);
    expect(fromLeft.width).toBe(320);
    const large = { x: 0, y: 0, width: 4000, height: 2500 };
    expect(resizeCrop({ x: 0, y: 0, width: 3000, height: 2000 }, 'se', -5000, -5000, large)).toEqual({ x: 0, y: 0, width: 800, height: 500 });
    const tiny = { x: 0, y: 0, width: 300, height: 200 };
    expect(resizeCrop({ x: 0, y: 0, width: 300, height: 200 }, 'se', -5000, -5000, tiny)).toEqual({ x: 0, y: 0, width: 300, height: 200 });
  });

  it('arrows move by 2% (10% with Alt); Shift+arrows resize', () => {
    const plain = { shift: false, large: false };
    expect(keyboardCrop(rect, 'ArrowRight', plain, bounds)).toEqual({ ...rect, x: 120 });
    expect(keyboardCrop(rect, 'ArrowUp', { shift: false, large: true }, bounds)).toEqual({ ...rect, y: 40 });
    expect(keyboardCrop(rect, 'ArrowRight', { shift: true, large: false }, bounds)).toEqual({ ...rect, width: 620 });
    expect(keyboardCrop(rect, 'ArrowUp', { shift: true, large: false }, bounds)).toEqual({ ...rect, height: 368 });
    expect(keyboardCrop({ ...rect, height: 240 }, 'ArrowUp', { shift: true, large: false }, bounds)).toEqual({ ...rect, height: 240 });
    expect(keyboardCrop(rect, 'Enter', plain, bounds)).toBeNull();
  });

  it('normalises a crop that does not fit', () => {
    expect(normaliseCrop({ x: -10, y: 550, width: 5000, height: 10 }, bounds)).toEqual({ x: 0, y: 360, width: 1000, height: 240 });
  });

  it('positions the crop over the preview in percentages', () => {
    expect(cropPercentages({ x: 150, y: 100, width: 500, height: 300 }, { x: 100, y: 100, width: 1000, height: 600 })).toEqual({
      left: 5,
      top: 0,
      width: 50,
      height: 50,
    });
  });
});

describe('uploaded crop size', () => {
  it('keeps small crops as they are and scales large ones down to the longest side', async () => {
    const { cropOutputSize, idImage } = await import('./capture');
    expect(cropOutputSize({ width: 913, height: 576 }, idImage.maxUploadSide)).toEqual({ width: 913, height: 576 });
    expect(cropOutputSize({ width: 3600, height: 2270 }, idImage.maxUploadSide)).toEqual({ width: 2400, height: 1513 });
    expect(cropOutputSize({ width: 1500, height: 3000 }, 2400)).toEqual({ width: 1200, height: 2400 });
  });
});
