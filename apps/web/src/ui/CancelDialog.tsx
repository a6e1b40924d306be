import { useState } from 'react';
import { copy } from './copy';
import { Dialog } from './Dialog';

interface CancelDialogProps {
  open: boolean;
  /** NO: close the dialog and stay on the screen. */
  onDismiss: () => void;
  /** SI: the screen reports the cancellation to the journey. */
  onConfirm: () => void;
  title?: string;
  message?: string;
}

/** 'Cancelar proceso' confirmation with NO (safe default, focused first) and SI. */
export function CancelDialog({ open, onDismiss, onConfirm, title = copy.cancelDialog.title, message = copy.cancelDialog.message }: CancelDialogProps) {
  const [confirmed, setConfirmed] = useState(false);
  return (
    <Dialog
      open={open}
      title={title}
      onClose={() => {
        if (!confirmed) onDismiss();
      }}
      actions={
        <>
          <button type="button" className="btn btn--secondary" data-autofocus disabled={confirmed} onClick={onDismiss}>
            {copy.common.no}
          </button>
          <button
            type="button"
            className="btn btn--primary"
            disabled={confirmed}
            onClick={() => {
              setConfirmed(true);
              onConfirm();
            }}
          >
            {copy.common.yes}
          </button>
        </>
      }
    >
      <p>{message}</p>
      <p role="status" className="dialog__status">
        {confirmed ? copy.cancelDialog.cancelling : null}
      </p>
    </Dialog>
  );
}
