import { texts as capture } from '../i18n/es-MX/capture';
import { Icon } from './icons';
import './capture.css';

/** Spec §2 /error_pantalla tips: dark background, focus within the frame, avoid glare. */
export function CaptureTips({ title = capture.tips.tipsTitle }: { title?: string }) {
  return (
    <>
      <h2 className="section-title">{title}</h2>
      <ul className="capture-tips">
        <li>
          <Icon name="id" />
          {capture.tips.tipDark}
        </li>
        <li>
          <Icon name="focus" />
          {capture.tips.tipFocus}
        </li>
        <li>
          <Icon name="sun" />
          {capture.tips.tipGlare}
        </li>
      </ul>
    </>
  );
}
