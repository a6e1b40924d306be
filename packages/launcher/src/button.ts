export type Variant = 'only_text' | 'original' | 'only_logo';

const logo =
  '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path fill="currentColor" d="M12 2 4 5v6c0 5 3.4 9.7 8 11 4.6-1.3 8-6 8-11V5l-8-3zm-1.2 14.2-3.5-3.5 1.4-1.4 2.1 2.1 4.9-4.9 1.4 1.4-6.3 6.3z"/></svg>';

const css = `:host{display:inline-block;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
.b{display:inline-flex;align-items:center;justify-content:center;gap:8px;min-height:48px;min-width:48px;padding:0 20px;border:0;border-radius:8px;background:var(--kyc-launcher-bg,#0b4f8a);color:var(--kyc-launcher-fg,#fff);font:inherit;font-size:16px;font-weight:600;letter-spacing:.02em;cursor:pointer}
.b:hover{filter:brightness(1.1)}.b:focus-visible{outline:3px solid var(--kyc-launcher-focus,#f2a900);outline-offset:2px}
.b[disabled]{opacity:.7;cursor:progress}.l{padding:0;width:48px}
.e{margin:8px 0 0;max-width:360px;color:#a4131f;font-size:14px;line-height:1.4}.e:empty{display:none}`;

export interface ButtonParts {
  host: HTMLElement;
  button: HTMLButtonElement;
  error: HTMLElement;
}

/** The button inside a shadow root, so the partner page's CSS neither breaks it nor is touched by it. */
export function renderButton(container: HTMLElement, text: string, variant: Variant): ButtonParts {
  const host = document.createElement('span');
  host.setAttribute('data-kyc-launcher', '');
  const root = host.attachShadow({ mode: 'open' });
  // A constructed style sheet is not subject to the partner page's CSP style-src; older browsers get a <style>.
  let style: HTMLStyleElement | null = null;
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
  } catch {
    style = document.createElement('style');
    style.textContent = css;
  }
  const button = document.createElement('button');
  button.type = 'button';
  button.className = variant === 'only_logo' ? 'b l' : 'b';
  button.setAttribute('part', 'button');
  if (variant !== 'only_text') button.innerHTML = logo;
  if (variant === 'only_logo') {
    button.setAttribute('aria-label', text);
    button.title = text;
  } else {
    const label = document.createElement('span');
    label.textContent = text;
    button.append(label);
  }
  const error = document.createElement('p');
  error.className = 'e';
  error.setAttribute('role', 'alert');
  if (style) root.append(style);
  root.append(button, error);
  container.append(host);
  return { host, button, error };
}
