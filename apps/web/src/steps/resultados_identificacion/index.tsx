import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useLocation } from '../../navigation/router';
import { paramEnabled, type GrantorParam } from '@kyc/contracts/params';
import { useJourney } from '../../journey/run';
import { useGrantorParams } from '../../session/grantor';
import { readOcr, type OcrRecord } from '../../session/idCapture';
import { sessionState } from '../../session/storage';
import { setUserDatum } from '../../session/userData';
import { texts } from '../../i18n/es-MX/resultados_identificacion';
import { Dialog } from '../../ui/Dialog';
import { Screen } from '../../ui/Screen';
import { fireIdentityChecks } from './checks';
import {
  canContinue,
  fieldError,
  finalValue,
  finalValues,
  formErrors,
  formSpec,
  inputValue,
  isEditable,
  maxLengthOf,
  prefill,
  selectForm,
  typedFields,
  unreadFields,
  userDataOf,
  validityOk,
  type FieldName,
  type FormSpec,
  type FormValues,
} from './form-model';
import './resultados.css';

function passportOf(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { passport?: unknown }).passport === true;
}

/** /identificacion_resultados and /resultados_identificacion: "Verifica tu información" (docs/flow.md §2). */
export function Component() {
  const location = useLocation();
  const params = useGrantorParams();
  const [reads] = useState(() => {
    const storage = sessionState();
    return { front: readOcr(storage, 'ocrFront'), back: readOcr(storage, 'ocrBack') };
  });
  const passport = passportOf(location.state);
  const dniVariant = paramEnabled(params, 'VARIANTE_DNI');
  const kind = selectForm({ ocrFront: reads.front, ocrBack: reads.back, params, passport });
  const spec = useMemo(() => formSpec(kind, dniVariant), [kind, dniVariant]);
  return <ResultsForm key={`${kind}-${dniVariant}`} spec={spec} front={reads.front} back={reads.back} params={params} />;
}

interface ResultsFormProps {
  spec: FormSpec;
  front: OcrRecord | null;
  back: OcrRecord | null;
  params: readonly GrantorParam[] | null;
}

function ResultsForm({ spec, front, back, params }: ResultsFormProps) {
  const journey = useJourney('resultados_identificacion');
  const formId = useId();
  const [read] = useState(() => {
    const prefilled = prefill(spec, front, back);
    return { prefilled, unread: unreadFields(spec, prefilled) };
  });
  const [values, setValues] = useState<FormValues>(read.prefilled);
  const editable = (name: FieldName) => isEditable(spec, read.unread, name);
  const [touched, setTouched] = useState<Partial<Record<FieldName, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [invalidValidity, setInvalidValidity] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const inputs = useRef(new Map<FieldName, HTMLInputElement>());

  const recapture = () => {
    setLeaving(true);
    journey({ type: 'recapture', passport: spec.kind === 'passport' });
  };

  if (!front) return <NoReadScreen leaving={leaving} onRecapture={recapture} />;

  const visibleError = (name: FieldName): string | null => {
    const show = !editable(name) || submitted || touched[name] === true || values[name] !== '';
    return show ? fieldError(name, values[name]) : null;
  };
  const errorCount = spec.fields.filter((name) => visibleError(name) !== null).length;

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    if (saving) return;
    setSubmitted(true);
    const final = finalValues(spec, values);
    setValues(final);
    const errors = formErrors(spec, final);
    const firstInvalid = spec.fields.find((name) => errors[name] !== undefined);
    if (firstInvalid) {
      inputs.current.get(firstInvalid)?.focus();
      return;
    }
    if (!validityOk(spec, final)) {
      setInvalidValidity(true);
      return;
    }
    setSaving(true);
    const storage = sessionState();
    const typed = typedFields(spec, read.prefilled, final);
    for (const datum of userDataOf(spec, final, typed)) setUserDatum(storage, datum.description, datum.value, datum.typed === true);
    fireIdentityChecks(spec, final, params);
    journey({ type: 'confirmed', typed });
  }

  return (
    <Screen
      title={texts.title}
      step="resultados_identificacion"
      className="results"
      actions={
        <>
          <button type="submit" form={formId} className="btn btn--primary" disabled={saving || leaving || !canContinue(spec, values)}>
            {texts.continue}
          </button>
          <button type="button" className="btn btn--secondary" disabled={saving || leaving} onClick={recapture}>
            {texts.recapture}
          </button>
          <p role="status" className="results__status">
            {saving ? texts.saving : null}
          </p>
        </>
      }
    >
      <p>{spec.editable ? texts.introEditable : read.unread.size > 0 ? texts.introReadOnlyUnread : texts.introReadOnly}</p>
      <form id={formId} className="results__form" noValidate onSubmit={submit} data-form={spec.kind}>
        {spec.fields.map((name) => (
          <Field
            key={name}
            name={name}
            value={values[name]}
            spec={spec}
            editable={editable(name)}
            unread={read.unread.has(name)}
            error={visibleError(name)}
            inputRef={(element) => {
              if (element) inputs.current.set(name, element);
              else inputs.current.delete(name);
            }}
            onChange={(raw) => {
              setValues((current) => ({ ...current, [name]: inputValue(spec, name, raw) }));
              setTouched((current) => ({ ...current, [name]: true }));
            }}
            onBlur={() => {
              setValues((current) => ({ ...current, [name]: finalValue(spec, name, current[name]) }));
              setTouched((current) => ({ ...current, [name]: true }));
            }}
          />
        ))}
      </form>
      <p role="alert" className="results__summary">
        {submitted && errorCount > 0 ? texts.fixErrors : null}
      </p>
      <ValidityDialog
        open={invalidValidity}
        leaving={leaving}
        onClose={() => setInvalidValidity(false)}
        onRecapture={recapture}
        onTerminate={() => {
          setLeaving(true);
          journey({ type: 'terminate' });
        }}
      />
    </Screen>
  );
}

/** Nothing was read from the ID: only a new capture helps. */
function NoReadScreen({ leaving, onRecapture }: { leaving: boolean; onRecapture: () => void }) {
  return (
    <Screen
      title={texts.title}
      step="resultados_identificacion"
      actions={
        <button type="button" className="btn btn--primary" disabled={leaving} onClick={onRecapture}>
          {texts.recapture}
        </button>
      }
    >
      <p className="notice__message" role="alert">
        {texts.noRead}
      </p>
    </Screen>
  );
}

interface ValidityDialogProps {
  open: boolean;
  leaving: boolean;
  onClose: () => void;
  onRecapture: () => void;
  onTerminate: () => void;
}

/** The ID is not valid (expired): capture another one, or end the process. */
function ValidityDialog({ open, leaving, onClose, onRecapture, onTerminate }: ValidityDialogProps) {
  return (
    <Dialog
      open={open}
      title={texts.invalidTitle}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn--primary" data-autofocus disabled={leaving} onClick={onRecapture}>
            {texts.recapture}
          </button>
          <button type="button" className="btn btn--secondary" disabled={leaving} onClick={onTerminate}>
            {texts.terminate}
          </button>
        </>
      }
    >
      <p>{texts.invalidText}</p>
    </Dialog>
  );
}

const inputModes: Partial<Record<FieldName, 'numeric' | 'text'>> = {
  fechaNacimiento: 'numeric',
  fechaRegistro: 'numeric',
  numeroEmision: 'numeric',
  cic: 'numeric',
  vigencia: 'numeric',
};

const autoCompletes: Partial<Record<FieldName, string>> = { nombreCompleto: 'name', fechaNacimiento: 'bday' };

interface FieldProps {
  name: FieldName;
  value: string;
  spec: FormSpec;
  editable: boolean;
  /** Not read from the ID: the person types it. */
  unread: boolean;
  error: string | null;
  inputRef: (element: HTMLInputElement | null) => void;
  onChange: (value: string) => void;
  onBlur: () => void;
}

function Field({ name, value, spec, editable, unread, error, inputRef, onChange, onBlur }: FieldProps) {
  const id = useId();
  const format = name === 'fechaNacimiento' || name === 'vigenciaPasaporte' ? texts.hints[name] : null;
  const hint = unread ? [texts.unreadHint, format].filter(Boolean).join(' ') : format;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={error ? 'field field--invalid' : 'field'} data-unread={unread ? 'true' : undefined}>
      <label htmlFor={id} className="field__label">
        {texts.labels[name]}
      </label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        ref={inputRef}
        name={name}
        className="field__input"
        type="text"
        value={value}
        readOnly={!editable}
        maxLength={maxLengthOf(name)}
        inputMode={inputModes[name] ?? 'text'}
        autoComplete={autoCompletes[name] ?? 'off'}
        autoCapitalize={spec.upperCase || name === 'curp' ? 'characters' : 'words'}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      />
      <p id={errorId} className="field__error" aria-live="polite">
        {error}
      </p>
    </div>
  );
}
