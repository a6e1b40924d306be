import { useId, type ReactNode } from 'react';

interface SmsFieldProps {
  className: string;
  label: string;
  hint: string;
  /** Runs on Enter in the field; the browser's submit is prevented. */
  onSubmit: () => void;
  /** The input (and what goes around it), given the ids it must carry and point to. */
  children: (ids: { inputId: string; hintId: string }) => ReactNode;
}

/** The labelled, hinted form field of /validar_movil and /validar_sms. */
export function SmsField({ className, label, hint, onSubmit, children }: SmsFieldProps) {
  const inputId = useId();
  const hintId = useId();
  return (
    <form
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <label className="sms-field__label" htmlFor={inputId}>
        {label}
      </label>
      <p className="sms-field__hint" id={hintId}>
        {hint}
      </p>
      {children({ inputId, hintId })}
    </form>
  );
}

/** The live status line and the alert line under the SMS field. */
export function SmsStatus({ status, error }: { status: ReactNode; error: string | null }) {
  return (
    <>
      <p role="status" className="sms__status">
        {status}
      </p>
      <p role="alert" className="sms__status alert">
        {error}
      </p>
    </>
  );
}
