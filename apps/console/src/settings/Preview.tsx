import { useState } from 'react';

type Rgb = [number, number, number];

function parse(hex: string | undefined): Rgb | undefined {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex?.trim() ?? '');
  if (!m) return undefined;
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

const luminance = ([r, g, b]: Rgb) => {
  const c = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
};
const contrast = (a: Rgb, b: Rgb) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
};
const hex = (c: Rgb) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const white: Rgb = [255, 255, 255];
const black: Rgb = [0, 0, 0];

/** The flow's rule (apps/web theme.ts): a colour that does not reach 4.5:1 on its background gives way to black or white. */
function readableOn(background: Rgb, wanted: Rgb): Rgb {
  if (contrast(background, wanted) >= 4.5) return wanted;
  return contrast(background, white) >= contrast(background, black) ? white : black;
}

const placeholders = (text: string, grantor: string) => text.replaceAll('{OTORGANTE}', grantor).replaceAll('{USUARIO}', 'Nombre Apellido');

/**
 * The customer flow's first screens as the unsaved values would show them: the start page (logo, colours) and the
 * privacy notice (title and text). Drawn by the console itself, with the flow's texts and its contrast rule; see
 * docs/decisions.md "Console settings" for why not an iframe of the flow.
 */
export function FlowPreview({ values, defaults }: { values: Record<string, string>; defaults: Record<string, string> }) {
  const [screen, setScreen] = useState<'inicio' | 'terminos'>('inicio');
  const color = (id: string) => parse(values[id]) ?? parse(defaults[id]) ?? black;
  const primary = color('COLOR_PRIMARIO');
  const secondary = color('COLOR_SECUNDARIO');
  const text = readableOn(white, color('COLOR_DE_TEXTO'));
  const vars = {
    '--pv-primary': hex(primary),
    '--pv-on-primary': hex(readableOn(primary, white)),
    '--pv-primary-text': hex(readableOn(white, primary)),
    '--pv-secondary': hex(secondary),
    '--pv-on-secondary': hex(readableOn(secondary, text)),
    '--pv-text': hex(text),
  } as Record<string, string>;
  const grantor = values.NOMBRE_CORTO?.trim() || values.RAZON_SOCIAL?.trim() || 'Otorgante';
  const logo = values.LOGO_OTORGANTE?.trim();
  return (
    <figure className="preview" aria-label="Vista previa del flujo">
      <div className="preview-switch" role="group" aria-label="Pantalla de la vista previa">
        <button type="button" className="secondary" aria-pressed={screen === 'inicio'} onClick={() => setScreen('inicio')}>
          Inicio
        </button>
        <button type="button" className="secondary" aria-pressed={screen === 'terminos'} onClick={() => setScreen('terminos')}>
          Aviso de privacidad
        </button>
      </div>
      <div className="phone" style={vars} data-testid="flow-preview">
        <div className="pv-header">{logo ? <img src={logo} alt={`Logotipo de ${grantor}`} /> : <span>{grantor}</span>}</div>
        {screen === 'inicio' ? (
          <div className="pv-body">
            <h2>Inicia tu pre-registro</h2>
            <p>Para completar tu pre-registro necesitarás:</p>
            <ul>
              <li>Una identificación oficial vigente: INE/IFE, pasaporte mexicano o documento migratorio.</li>
              <li>Permitir el acceso a la cámara de tu dispositivo.</li>
              <li>Una buena conexión a internet.</li>
            </ul>
            <span className="pv-button" data-testid="preview-start">
              EMPEZAR
            </span>
            <span className="pv-link">¿Necesitas ayuda?</span>
          </div>
        ) : (
          <div className="pv-body">
            <h2>{values.TITULO_TERMINOS || defaults.TITULO_TERMINOS}</h2>
            <div className="pv-text">
              {placeholders(values.TEXTO_TERMINOS || defaults.TEXTO_TERMINOS || '', grantor)
                .split('{enter}')
                .map((line, i) => (
                  <p key={i}>{line}</p>
                ))}
            </div>
            <span className="pv-button">ACEPTAR</span>
          </div>
        )}
      </div>
      <figcaption className="hint">Vista previa con los cambios sin guardar.</figcaption>
    </figure>
  );
}
