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
        <div className="field">
          <label htmlFor="biometric-days">Medios biométricos (rostro, identificación y video), en días</label>
          <input
            id="biometric-days"
            type="number"
            inputMode="numeric"
            min={limits.biometricDays.min}
            max={limits.biometricDays.max}
            value={days}
            onChange={(e) => setDays(e.currentTarget.value)}
            {...invalidProps('biometric-days', fields.biometricDays)}
          />
          <p className="hint">
            De {limits.biometricDays.min} a {limits.biometricDays.max} días después de la captura.
          </p>
          <FieldError id="biometric-days" text={fields.biometricDays} />
        </div>
        <div className="field">
          <label htmlFor="file-years">Resto del expediente, en años</label>
          <input
            id="file-years"
            type="number"
            inputMode="numeric"
            min={limits.fileYears.min}
            max={limits.fileYears.max}
            value={years}
            onChange={(e) => setYears(e.currentTarget.value)}
            {...invalidProps('file-years', fields.fileYears)}
          />
          <p className="hint">
            De {limits.fileYears.min} a {limits.fileYears.max} años después de la última actividad.
          </p>
          <FieldError id="file-years" text={fields.fileYears} />
        </div>
        <button type="submit" className="primary" disabled={busy}>
          Guardar política
        </button>
      </form>
    </section>
  );
}
