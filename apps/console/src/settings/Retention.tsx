import { useEffect, useState, type FormEvent } from 'react';
import type { ConsoleRetention } from '@kyc/contracts';
import { api } from '../api';
import type { ScreenProps } from '../screens';
import { FieldError, invalidProps, Messages, useFailure } from './common';

/** The retention policy the scheduled sweep applies to this grantor's cases (README "Retention and data-subject requests"). */
export function Retention({ onSignedOut }: ScreenProps) {
  const [policy, setPolicy] = useState<ConsoleRetention | undefined>();
  const [days, setDays] = useState('');
  const [years, setYears] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const { error, fields, fail, clear } = useFailure(onSignedOut);

  function show(p: ConsoleRetention) {
    setPolicy(p);
    setDays(String(p.biometricDays));
    setYears(String(p.fileYears));
  }
  useEffect(() => {
    api.retention().then(show).catch(fail);
  }, [fail]);

  async function save(event: FormEvent) {
    event.preventDefault();
    clear();
    setNotice('');
    setBusy(true);
    try {
      show(await api.saveRetention({ biometricDays: Number(days), fileYears: Number(years) }));
      setNotice('Guardamos la política: la próxima depuración la aplica.');
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  }

  if (!policy) return <Messages error={error} notice={error ? '' : 'Cargando la política…'} />;
  const { limits } = policy;
  return (
    <section aria-labelledby="retention-title">
      <h2 id="retention-title">Conservación de datos</h2>
      <p className="hint">
        {policy.stored ? 'Política de este otorgante.' : 'Valores predeterminados: aún no se ha guardado una política propia.'} Al vencer cada plazo, la depuración programada borra los archivos y los
        datos, y deja una constancia con sus hashes; los expedientes con retención legal no se borran.
      </p>
      <Messages error={error} notice={notice} />
      <form className="stacked-form narrow" onSubmit={save} noValidate>
        <LimitField texts={limitTexts.biometricDays} limit={limits.biometricDays} value={days} onChange={setDays} error={fields.biometricDays} />
        <LimitField texts={limitTexts.fileYears} limit={limits.fileYears} value={years} onChange={setYears} error={fields.fileYears} />
        <button type="submit" className="primary" disabled={busy}>
          Guardar política
        </button>
      </form>
    </section>
  );
}

const limitTexts = {
  biometricDays: { id: 'biometric-days', label: 'Medios biométricos (rostro, identificación y video), en días', hint: 'días después de la captura' },
  fileYears: { id: 'file-years', label: 'Resto del expediente, en años', hint: 'años después de la última actividad' },
};

interface LimitFieldProps {
  texts: { id: string; label: string; hint: string };
  limit: { min: number; max: number };
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}

/** One bounded number of the policy, with its range spelt out under it. */
function LimitField({ texts, limit, value, onChange, error }: LimitFieldProps) {
  const { id, label, hint } = texts;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="number" inputMode="numeric" min={limit.min} max={limit.max} value={value} onChange={(e) => onChange(e.currentTarget.value)} {...invalidProps(id, error)} />
      <p className="hint">
        De {limit.min} a {limit.max} {hint}.
      </p>
      <FieldError id={id} text={error} />
    </div>
  );
}
