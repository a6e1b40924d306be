import { useState, type ReactNode } from 'react';
import { CancelDialog } from './CancelDialog';
import { Screen } from './Screen';

interface PreparationScreenProps {
  title: string;
  step: string;
  captureLabel: string;
  cancelLabel: string;
  onCapture: () => void;
  onCancelConfirmed: () => void;
  /** The screen's class (default `preparation`). */
  className?: string;
  children?: ReactNode;
}

/**
 * A screen before a capture or a document (/preparacion_identificacion, /preparacion_comprobante, /clausula,
 * /autorizacion_solicitud): the main action and CANCELAR with its confirmation dialog; both disable the actions
 * once chosen.
 */
export function PreparationScreen({ title, step, captureLabel, cancelLabel, onCapture, onCancelConfirmed, className = 'preparation', children }: PreparationScreenProps) {
  const [cancelOpen, setCancelOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <Screen
      title={title}
      step={step}
      className={className}
      actions={
        <>
          <button
            type="button"
            className="btn btn--primary"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              onCapture();
            }}
          >
            {captureLabel}
          </button>
          <button type="button" className="btn btn--secondary" disabled={busy} onClick={() => setCancelOpen(true)}>
            {cancelLabel}
          </button>
        </>
      }
    >
      {children}
      <CancelDialog
        open={cancelOpen}
        onDismiss={() => setCancelOpen(false)}
        onConfirm={() => {
          setBusy(true);
          onCancelConfirmed();
        }}
      />
    </Screen>
  );
}
