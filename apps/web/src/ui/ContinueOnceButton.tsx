import { useState } from 'react';
import { copy } from './copy';

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
      {copy.common.continue}
    </button>
  );
}
