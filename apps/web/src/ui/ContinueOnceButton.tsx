import { useState } from 'react';
import { texts as common } from '../i18n/es-MX/common';

/** CONTINUAR that disables itself once pressed, so the step's navigation runs once. */
export function ContinueOnceButton({ onContinue }: { onContinue: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="btn btn--primary"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        onContinue();
      }}
    >
      {common.continue}
    </button>
  );
}
