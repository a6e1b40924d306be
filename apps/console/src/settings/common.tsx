import { useState } from 'react';
export { Messages, useFailure } from '../feedback';

/** One call of a settings panel at a time: clears the last error and notice, shows `done` on success; resolves whether it succeeded. */
export function useAction(clear: () => void, fail: (e: unknown) => void) {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');
  async function run(action: () => Promise<unknown>, done: string) {
    clear();
    setNotice('');
    setBusy(true);
    try {
      await action();
      setNotice(done);
      return true;
    } catch (e) {
      fail(e);
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, notice, run };
}

/** A field's refusal under it, referenced by the input's aria-describedby. */
export function FieldError({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <p className="field-error" id={`${id}-error`}>
      {text}
    </p>
  ) : null;
}

export const invalidProps = (id: string, text: string | undefined) => (text ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {});

/** Secrets shown once (a key, a signing secret, a password, a TOTP URI), with a copy button. */
export function OnceSecret({ title, items, onDone }: { title: string; items: { label: string; value: string }[]; onDone(): void }) {
  const [copied, setCopied] = useState('');
  return (
    <section className="once" aria-labelledby="once-title">
      <h3 id="once-title">{title}</h3>
      <p>Se muestra solo ahora: cópialo y guárdalo en un lugar seguro. No podrás volver a verlo.</p>
      <dl>
        {items.map((item) => (
          <div key={item.label}>
            <dt>{item.label}</dt>
            <dd>
              <code className="secret">{item.value}</code>
              <button
                type="button"
                className="secondary"
                onClick={() =>
                  navigator.clipboard
                    ?.writeText(item.value)
                    .then(() => setCopied(item.label))
                    .catch(() => setCopied(''))
                }
              >
                {copied === item.label ? 'Copiado' : 'Copiar'}
              </button>
            </dd>
          </div>
        ))}
      </dl>
      <button type="button" className="primary" onClick={onDone}>
        Ya lo guardé
      </button>
    </section>
  );
}

/** «1 clave», «2 claves». */
export const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
