import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useLocation } from '../../navigation/router';
import type { ProofReadingWire } from '@kyc/contracts';
import { fieldMaxLength } from '@kyc/contracts/rules';
import { api } from '../../api/calls';
import { isAbortError } from '../../api/client';
import { useJourney } from '../../journey/run';
import { readOcr } from '../../session/idCapture';
import { readSession } from '../../session/session';
import { sessionState } from '../../session/storage';
import { texts } from '../../i18n/es-MX/datos_direccion_ocr_page';
import { setUserDatum } from '../../session/userData';
import { Screen } from '../../ui/Screen';
import {
  activeFields,
  addressUserData,
  applyLookup,
  fieldError,
  formValid,
  initialAddress,
  otherSettlement,
  placeUnknown,
  postalCodeInput,
  shouldLookUp,
  type AddressField,
  type AddressForm,
} from './address-model';
import '../resultados_identificacion/resultados.css';
import './address.css';

function readingOf(state: unknown): ProofReadingWire | null {
  const lectura = typeof state === 'object' && state !== null ? (state as { lectura?: unknown }).lectura : undefined;
  return typeof lectura === 'object' && lectura !== null && typeof (lectura as ProofReadingWire).leido === 'boolean' ? (lectura as ProofReadingWire) : null;
}

type Lookup = { state: 'idle' | 'searching' | 'found' | 'none' | 'failed'; count?: number };

/** The postal-code lookup: fills the place and the settlements of a code, or leaves them for the person to type. */
function usePostalLookup(setForm: (update: (current: AddressForm) => AddressForm) => void) {
  const [lookup, setLookup] = useState<Lookup>({ state: 'idle' });
  const lookupAbort = useRef<AbortController | null>(null);
  useEffect(() => () => lookupAbort.current?.abort(), []);

  async function lookUp(cp: string): Promise<void> {
    lookupAbort.current?.abort();
    const controller = new AbortController();
    lookupAbort.current = controller;
    setLookup({ state: 'searching' });
    try {
      const envelope = await api().request('postalCodes', {
        step: 'datos_direccion_ocr_page',
        body: { address: { cp }, uuid: readSession().uuidUser ?? '' },
        signal: controller.signal,
      });
      const settlements = envelope?.payload?.address ?? [];
      setForm((current) => (current.values.codigoPostal === cp ? applyLookup(current, settlements) : current));
      setLookup(settlements.length > 0 ? { state: 'found', count: new Set(settlements.map((s) => s.asentamiento)).size } : { state: 'none' });
    } catch (error) {
      if (isAbortError(error)) return;
      // Unknown place for this code: what came with another code is emptied for the person to type.
      setForm((current) => (current.values.codigoPostal === cp ? placeUnknown(current) : current));
      setLookup({ state: 'failed' });
    }
  }
  return { lookup, lookUp };
}

function lookupTextOf(lookup: Lookup): string | null {
  switch (lookup.state) {
    case 'searching':
      return texts.searching;
    case 'found':
      return texts.found(lookup.count ?? 0);
    case 'none':
      return texts.notFound;
    case 'failed':
      return texts.lookupFailed;
    case 'idle':
      return null;
  }
}

interface FieldProps {
  formId: string;
  name: AddressField;
  value: string;
  error: string | null;
  disabled: boolean;
  register: (element: HTMLInputElement | HTMLSelectElement | null) => void;
  onChange: (value: string) => void;
  onBlur: () => void;
}

interface TextFieldOptions {
  inputMode?: 'numeric' | 'text';
  autoComplete?: string;
  maxLength?: number | undefined;
}

/** A labelled text field with its error line. */
function TextField({ formId, name, value, error, disabled, register, onChange, onBlur, inputMode, autoComplete, maxLength }: FieldProps & TextFieldOptions) {
  const id = `${formId}-${name}`;
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {texts.labels[name]}
      </label>
      <input
        id={id}
        ref={register}
        name={name}
        className="field__input"
        value={value}
        inputMode={inputMode ?? 'text'}
        autoComplete={autoComplete ?? 'off'}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      />
      <p className="field__error" id={`${id}-error`}>
        {error}
      </p>
    </div>
  );
}

/** The settlement chosen among those of the postal code. */
function ColoniaSelect({ formId, name, value, error, disabled, register, onChange, onBlur, options }: FieldProps & { options: readonly string[] }) {
  const id = `${formId}-${name}`;
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {texts.labels.colonia}
      </label>
      <select
        id={id}
        ref={register}
        name={name}
        className="field__input"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      >
        <option value="">{texts.choose}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      <p className="field__error" id={`${id}-error`}>
        {error}
      </p>
    </div>
  );
}

/** /identificacion_edit, step datos_direccion_ocr_page: "Verifica y completa tu dirección actual" (docs/flow.md §2). */
export function Component() {
  const location = useLocation();
  const journey = useJourney('datos_direccion_ocr_page');
  const formId = useId();
  const [form, setForm] = useState<AddressForm>(() => initialAddress(readingOf(location.state), readOcr(sessionState(), 'ocrFront')));
  const [touched, setTouched] = useState<Partial<Record<AddressField, boolean>>>({});
  const [saving, setSaving] = useState(false);
  const { lookup, lookUp } = usePostalLookup(setForm);
  const inputs = useRef(new Map<AddressField, HTMLInputElement | HTMLSelectElement>());

  const set = (name: AddressField, value: string) => {
    setForm((current) => ({ ...current, values: { ...current.values, [name]: value } }));
    setTouched((current) => ({ ...current, [name]: true }));
  };

  const fields = activeFields(form);
  const visibleError = (name: AddressField): string | null => (touched[name] === true || form.values[name] !== '' ? fieldError(name, form.values[name]) : null);
  const valid = formValid(form);

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    if (saving) return;
    if (!valid) {
      const first = fields.find((name) => fieldError(name, form.values[name]) !== null);
      if (first) inputs.current.get(first)?.focus();
      return;
    }
    setSaving(true);
    const storage = sessionState();
    for (const datum of addressUserData(form)) setUserDatum(storage, datum.description, datum.value);
    journey({ type: 'saved' });
  }

  const change = (name: AddressField, value: string) => {
    if (name !== 'codigoPostal') {
      set(name, value);
      return;
    }
    const previous = form.values.codigoPostal;
    const next = postalCodeInput(value);
    set(name, next);
    if (shouldLookUp(previous, next, true)) void lookUp(next);
  };

  const field = (name: AddressField): FieldProps & { key: string } => ({
    key: name,
    formId,
    name,
    value: form.values[name],
    error: visibleError(name),
    disabled: saving,
    register: (element) => {
      if (element) inputs.current.set(name, element);
      else inputs.current.delete(name);
    },
    onChange: (value) => change(name, value),
    onBlur: () => setTouched((current) => ({ ...current, [name]: true })),
  });

  const intro = form.source === 'comprobante' ? texts.introProof : form.source === 'identificacion' ? texts.introId : texts.introEmpty;

  return (
    <Screen
      title={texts.title}
      step="datos_direccion_ocr_page"
      className="results address"
      actions={
        <>
          <button type="submit" form={formId} className="btn btn--primary" disabled={saving || !valid}>
            {texts.save}
          </button>
          <p role="status" className="results__status">
            {saving ? texts.saving : null}
          </p>
        </>
      }
    >
      <p>{intro}</p>
      <form id={formId} className="results__form" noValidate onSubmit={submit} data-source={form.source}>
        <TextField {...field('codigoPostal')} inputMode="numeric" autoComplete="postal-code" maxLength={fieldMaxLength.codigoPostal} />
        <p role="status" className="address__lookup" data-lookup={lookup.state}>
          {lookupTextOf(lookup)}
        </p>
        <TextField {...field('pais')} autoComplete="country-name" />
        <TextField {...field('estado')} autoComplete="address-level1" />
        <TextField {...field('delegacion')} autoComplete="address-level2" />
        {form.colonia.kind === 'text' ? <TextField {...field('colonia')} autoComplete="address-level3" /> : <ColoniaSelect {...field('colonia')} options={form.colonia.options} />}
        {form.colonia.kind === 'select' && form.values.colonia === otherSettlement ? <TextField {...field('otraColonia')} /> : null}
        <TextField {...field('calle')} autoComplete="address-line1" />
        <TextField {...field('numeroExterior')} />
        <TextField {...field('numeroInterior')} />
      </form>
    </Screen>
  );
}
