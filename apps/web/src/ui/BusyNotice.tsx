import { useEffect, useState } from 'react';
import { isBusyWaiting, onBusyChange } from '../api/busy';
import { texts as common } from '../i18n/es-MX/common';

/** A polite status line while a call waits to be sent again because the server is busy (docs/decisions.md). */
export function BusyNotice() {
  const [busy, setBusy] = useState(isBusyWaiting);
  useEffect(() => onBusyChange(setBusy), []);
  return (
    <div className="busy-notice" role="status" aria-live="polite">
      {busy ? <p className="busy-notice__text">{common.busy}</p> : null}
    </div>
  );
}
