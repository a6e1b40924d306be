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
  children?: ReactNode;
}

/**
 * A screen before a capture (/preparacion_identificacion, /preparacion_comprobante): the capture action and
 * CANCELAR with its confirmation dialog; both disable the actions once chosen.
 */
export function PreparationScreen({ title, step, captureLabel, cancelLabel, onCapture, onCancelConfirmed, children }: PreparationScreenProps) {
  const [cancelOpen, setCancelOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <Screen
      title={title}
      step={step}
      className="preparation"
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
