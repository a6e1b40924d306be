import { texts as common } from '../i18n/es-MX/common';

/** Phones held in landscape: the flow asks for portrait (docs/flow.md §2 shared overlays). */
export const landscapePhoneQuery = '(orientation: landscape) and (max-height: 500px) and (pointer: coarse)';

export function RotateNotice() {
  return (
    <div className="rotate-notice" role="alert">
      <span className="rotate-notice__icon" aria-hidden="true" />
      <p className="rotate-notice__text">{common.notices.rotate}</p>
    </div>
  );
}
