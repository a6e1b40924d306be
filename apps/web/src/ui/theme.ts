import { grantorParamDefaults, paramValue, type GrantorParam } from '@kyc/contracts/params';
import { contrastRatio, parseColor, readableOn, toHex, uiContrast, white, type Rgb } from './contrast';

/** CSS variables the stylesheets use; set on :root from the grantor's colours. */
export type ThemeVariables = Record<
  '--color-primary' | '--color-on-primary' | '--color-primary-text' | '--color-secondary' | '--color-on-secondary' | '--color-accent' | '--color-focus' | '--color-text' | '--color-background',
  string
>;

type ColorParam = 'COLOR_PRIMARIO' | 'COLOR_SECUNDARIO' | 'COLOR_ACENTUACION' | 'COLOR_DE_TEXTO';

function colorOf(params: readonly GrantorParam[] | null, id: ColorParam): Rgb {
  return parseColor(paramValue(params, id)) ?? (parseColor(grantorParamDefaults[id]) as Rgb);
}

/**
 * Theme from COLOR_PRIMARIO, COLOR_SECUNDARIO, COLOR_ACENTUACION and COLOR_DE_TEXTO with a WCAG AA guard:
 * body text on the page background and button text on the primary colour must reach 4.5:1, otherwise
 * black or white is used; the focus ring (accent) must reach 3:1 on the page, otherwise the text colour.
 */
export function themeVariables(params: readonly GrantorParam[] | null): ThemeVariables {
  const background = white;
  const primary = colorOf(params, 'COLOR_PRIMARIO');
  const secondary = colorOf(params, 'COLOR_SECUNDARIO');
  const accent = colorOf(params, 'COLOR_ACENTUACION');
  const text = readableOn(background, colorOf(params, 'COLOR_DE_TEXTO'));
  const onPrimary = readableOn(primary, white);
  // Primary used as text (links, outlined buttons) on the page background.
  const primaryText = readableOn(background, primary);
  const focus = contrastRatio(accent, background) >= uiContrast ? accent : text;
  return {
    '--color-primary': toHex(primary),
    '--color-on-primary': toHex(onPrimary),
    '--color-primary-text': toHex(primaryText),
    '--color-secondary': toHex(secondary),
    '--color-on-secondary': toHex(readableOn(secondary, text)),
    '--color-accent': toHex(accent),
    '--color-focus': toHex(focus),
    '--color-text': toHex(text),
    '--color-background': toHex(background),
  };
}

export function applyTheme(variables: ThemeVariables, root: HTMLElement = document.documentElement): void {
  for (const [name, value] of Object.entries(variables)) root.style.setProperty(name, value);
}
