import { describe, expect, it } from 'vitest';
import { black, contrastRatio, parseColor, readableOn, white } from './contrast';
import { themeVariables } from './theme';

const params = (values: Record<string, string>) => Object.entries(values).map(([idCampo, valor]) => ({ idCampo, valor }));
const ratio = (a: string, b: string) => contrastRatio(parseColor(a)!, parseColor(b)!);

describe('contrast helpers (WCAG 2.x)', () => {
  it('computes the reference ratios', () => {
    expect(contrastRatio(black, white)).toBeCloseTo(21, 5);
    expect(ratio('#777777', '#FFFFFF')).toBeCloseTo(4.48, 2);
    expect(ratio('#767676', '#FFFFFF')).toBeGreaterThanOrEqual(4.5);
  });

  it('parses #rgb, #rrggbb and rgb() and rejects anything else', () => {
    expect(parseColor('#0b4f8a')).toEqual({ r: 11, g: 79, b: 138 });
    expect(parseColor('#FFF')).toEqual(white);
    expect(parseColor(' rgb(1, 2, 3) ')).toEqual({ r: 1, g: 2, b: 3 });
    for (const bad of ['red', 'rgb(300,0,0)', '#12345', 'url(x)', '', 'var(--x)']) expect(parseColor(bad)).toBeNull();
  });

  it('keeps the preferred colour when it passes, else picks black or white, whichever passes', () => {
    expect(readableOn(white, parseColor('#333333')!)).toEqual(parseColor('#333333'));
    expect(readableOn(parseColor('#FFD700')!, white)).toEqual(black);
    expect(readableOn(parseColor('#1A1A1A')!, black)).toEqual(white);
  });
});

describe('grantor theme with the contrast guard', () => {
  it('uses the grantor colours when they pass AA', () => {
    const vars = themeVariables(params({ COLOR_PRIMARIO: '#003366', COLOR_DE_TEXTO: '#222222', COLOR_SECUNDARIO: '#EEEEEE' }));
    expect(vars['--color-primary']).toBe('#003366');
    expect(vars['--color-on-primary']).toBe('#FFFFFF');
    expect(vars['--color-text']).toBe('#222222');
    expect(vars['--color-secondary']).toBe('#EEEEEE');
  });

  it('switches the primary button text to black when white fails 4.5:1 on a light primary', () => {
    const vars = themeVariables(params({ COLOR_PRIMARIO: '#FFC107' }));
    expect(vars['--color-on-primary']).toBe('#000000');
    expect(ratio(vars['--color-on-primary'], vars['--color-primary'])).toBeGreaterThanOrEqual(4.5);
  });

  it('replaces a body text colour that fails 4.5:1 on the page background', () => {
    const vars = themeVariables(params({ COLOR_DE_TEXTO: '#AAAAAA' }));
    expect(vars['--color-text']).toBe('#000000');
    expect(ratio(vars['--color-text'], vars['--color-background'])).toBeGreaterThanOrEqual(4.5);
  });

  it('every text pair passes AA for a spread of grantor palettes', () => {
    const palettes = ['#FFFFFF', '#FFFF00', '#808080', '#777777', '#00FF00', '#0000FF', '#FF0000', '#123456', '#F2A900'];
    for (const primary of palettes) {
      for (const text of palettes) {
        const vars = themeVariables(params({ COLOR_PRIMARIO: primary, COLOR_DE_TEXTO: text, COLOR_SECUNDARIO: primary }));
        expect(ratio(vars['--color-on-primary'], vars['--color-primary'])).toBeGreaterThanOrEqual(4.5);
        expect(ratio(vars['--color-text'], vars['--color-background'])).toBeGreaterThanOrEqual(4.5);
        expect(ratio(vars['--color-primary-text'], vars['--color-background'])).toBeGreaterThanOrEqual(4.5);
        expect(ratio(vars['--color-on-secondary'], vars['--color-secondary'])).toBeGreaterThanOrEqual(4.5);
        expect(ratio(vars['--color-focus'], vars['--color-background'])).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it('falls back to the default colour for values that are not colours', () => {
    const vars = themeVariables(params({ COLOR_PRIMARIO: 'javascript:alert(1)', COLOR_DE_TEXTO: '' }));
    expect(vars['--color-primary']).toBe('#0B4F8A');
    expect(vars['--color-text']).toBe('#1B1B1F');
  });

  it('the stylesheet defaults are the theme of no parameters', () => {
    const vars = themeVariables(null);
    expect(vars).toMatchObject({
      '--color-primary': '#0B4F8A',
      '--color-on-primary': '#FFFFFF',
      '--color-primary-text': '#0B4F8A',
      '--color-secondary': '#E8F0F8',
      '--color-on-secondary': '#1B1B1F',
      '--color-accent': '#F2A900',
      '--color-focus': '#1B1B1F',
      '--color-text': '#1B1B1F',
      '--color-background': '#FFFFFF',
    });
  });
});
