import { captureCopy } from './captureCopy';
import { Icon } from './icons';
import './capture.css';

/** Spec §2 /error_pantalla tips: dark background, focus within the frame, avoid glare. */
export function CaptureTips({ title = captureCopy.errorScreen.tipsTitle }: { title?: string }) {
  return (
    <>
      <h2 className="section-title">{title}</h2>
      <ul className="capture-tips">
        <li>
          <Icon name="id" />
          {captureCopy.errorScreen.tipDark}
        </li>
        <li>
          <Icon name="focus" />
          {captureCopy.errorScreen.tipFocus}
        </li>
        <li>
          <Icon name="sun" />
          {captureCopy.errorScreen.tipGlare}
        </li>
      </ul>
    </>
  );
}
