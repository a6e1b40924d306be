import { useState } from 'react';
import { texts as common } from '../i18n/es-MX/common';
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
export function CancelDialog({ open, onDismiss, onConfirm, title = common.cancelDialog.title, message = common.cancelDialog.message }: CancelDialogProps) {
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
            {common.no}
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
            {common.yes}
          </button>
        </>
      }
    >
      <p>{message}</p>
      <p role="status" className="dialog__status">
        {confirmed ? common.cancelDialog.cancelling : null}
      </p>
    </Dialog>
  );
}
