import { useEffect, useState } from 'react';
import { isBusyWaiting, onBusyChange } from '../api/busy';
import { copy } from './copy';

/** A polite status line while a call waits to be sent again because the server is busy (docs/decisions.md). */
export function BusyNotice() {
  const [busy, setBusy] = useState(isBusyWaiting);
  useEffect(() => onBusyChange(setBusy), []);
  return (
    <div className="busy-notice" role="status" aria-live="polite">
      {busy ? <p className="busy-notice__text">{copy.common.busy}</p> : null}
    </div>
  );
}
