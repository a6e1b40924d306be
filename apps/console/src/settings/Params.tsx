import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { ConsoleParams } from '@kyc/contracts';
import { api } from '../api';
import type { ScreenProps } from '../screens';
import { FieldError, invalidProps, Messages, useFailure } from './common';
import { FlowPreview } from './Preview';

type Param = ConsoleParams['params'][number];

const names: Record<string, string> = {
  COLOR_PRIMARIO: 'Color primario',
  COLOR_SECUNDARIO: 'Color secundario',
  COLOR_ACENTUACION: 'Color de acento',
  COLOR_DE_TEXTO: 'Color del texto',
  LOGO_OTORGANTE: 'Logotipo (data:image/… o ruta de este servidor)',
  NOMBRE_CORTO: 'Nombre corto',
  RAZON_SOCIAL: 'Razón social',
  TITULO_TERMINOS: 'Título del aviso de privacidad',
  TEXTO_TERMINOS: 'Texto del aviso de privacidad',
};

const groups: { title: string; test: (id: string) => boolean }[] = [
  { title: 'Marca', test: (id) => id.startsWith('COLOR_') || ['LOGO_OTORGANTE', 'NOMBRE_CORTO', 'RAZON_SOCIAL', 'ICONO_ID_CHECK'].includes(id) },
  { title: 'Textos y consentimientos', test: (id) => /^(TITULO|TEXTO|VERSION)_/.test(id) },
  { title: 'Umbrales, intentos y vigencias', test: (id) => /^(INTENTOS|UMBRAL|SCORE|HORAS|MESES|MOVIMIENTOS)_/.test(id) },
  { title: 'Otros', test: () => true },
];

const flagValues = new Set(['true', 'false', 'verdadero', 'falso']);

function Field({ param, value, error, onChange }: { param: Param; value: string; error: string | undefined; onChange(v: string): void }) {
  const id = `param-${param.id}`;
  const label = names[param.id] ?? param.id;
  const common = { id, value, onChange: (e: { currentTarget: { value: string } }) => onChange(e.currentTarget.value), ...invalidProps(id, error) };
  let input = <input type="text" spellCheck={false} {...common} />;
  if (param.id.startsWith('TEXTO_')) input = <textarea rows={5} {...common} />;
  else if (flagValues.has(param.defaultValue.toLowerCase()))
    input = (
      <select {...common}>
        {[...new Set([value, 'true', 'false'])].map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    );
  else if (param.id.startsWith('COLOR_'))
    input = (
      <span className="color-input">
        <input
          type="color"
          aria-label={`${label}: selector`}
          value={/^#[0-9a-f]{6}$/i.test(value) ? value : '#000000'}
          onInput={(e) => onChange(e.currentTarget.value.toUpperCase())}
          onChange={(e) => onChange(e.currentTarget.value.toUpperCase())}
        />
        <input type="text" spellCheck={false} {...common} />
      </span>
    );
  return (
    <div className="field">
      <label htmlFor={id}>
        {label} {names[param.id] ? <code className="muted">{param.id}</code> : null}
      </label>
      {input}
      <FieldError id={id} text={error} />
    </div>
  );
}

/** The grantor's parameters, checked by the server with the CLI's rules, beside a preview of the branded flow. */
export function Params({ onSignedOut }: ScreenProps) {
  const [loaded, setLoaded] = useState<Param[] | undefined>();
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const { error, fields, fail, clear, forget } = useFailure(onSignedOut);

  function load(params: ConsoleParams) {
    setLoaded(params.params);
    setDraft(Object.fromEntries(params.params.map((p) => [p.id, p.value])));
  }
  useEffect(() => {
    api.params().then(load).catch(fail);
  }, [fail]);

  const defaults = useMemo(() => Object.fromEntries((loaded ?? []).map((p) => [p.id, p.defaultValue])), [loaded]);
  const changed = (loaded ?? []).filter((p) => draft[p.id] !== p.value).map((p) => p.id);

  async function save(event: FormEvent) {
    event.preventDefault();
    clear();
    setNotice('');
    setBusy(true);
    try {
      load(await api.saveParams(Object.fromEntries(changed.map((id) => [id, draft[id] ?? '']))));
      setNotice(`Guardamos ${changed.length} ${changed.length === 1 ? 'parámetro' : 'parámetros'}. El flujo los usa desde ahora.`);
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  }

  if (!loaded) return <Messages error={error} notice={error ? '' : 'Cargando parámetros…'} />;
  const placed = new Set<string>();
  return (
    <div className="params-layout">
      <form className="params" onSubmit={save} noValidate>
        <Messages error={error} notice={notice} />
        {groups.map((g) => {
          const members = loaded.filter((p) => !placed.has(p.id) && g.test(p.id));
          for (const p of members) placed.add(p.id);
          return (
            <fieldset key={g.title}>
              <legend>{g.title}</legend>
              {members.map((p) => (
                <Field
                  key={p.id}
                  param={p}
                  value={draft[p.id] ?? ''}
                  error={fields[p.id]}
                  onChange={(v) => {
                    forget(p.id);
                    setDraft((d) => ({ ...d, [p.id]: v }));
                  }}
                />
              ))}
            </fieldset>
          );
        })}
        <div className="actions sticky">
          <button type="submit" className="primary" disabled={busy || changed.length === 0}>
            Guardar cambios{changed.length ? ` (${changed.length})` : ''}
          </button>
          <button type="button" className="secondary" disabled={busy || changed.length === 0} onClick={() => load({ params: loaded })}>
            Descartar
          </button>
        </div>
      </form>
      <FlowPreview values={draft} defaults={defaults} />
    </div>
  );
}
