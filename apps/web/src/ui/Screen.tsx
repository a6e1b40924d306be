import { useEffect, useId, useRef, type ReactNode } from 'react';
import { paramValue } from '@kyc/contracts/params';
import { useGrantorParams } from '../session/grantor';

interface ScreenProps {
  title: string;
  children?: ReactNode;
  /** The action bar: the screen's primary action first, then secondary ones. */
  actions?: ReactNode;
  className?: string;
  step?: string;
}

let screensShown = 0;

/**
 * One screen of the flow: a titled main region and the bottom action bar of the spec's layout rule
 * (fixed at the bottom on tall enough windows, after the content otherwise; see global.css).
 */
export function Screen({ title, children, actions, className, step }: ScreenProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const params = useGrantorParams();
  const grantor = paramValue(params, 'NOMBRE_CORTO');

  useEffect(() => {
    document.title = grantor ? `${title} · ${grantor}` : title;
  }, [title, grantor]);

  // After a navigation, move focus to the new screen's title so screen readers announce it;
  // on the first screen of the page load, leave focus where the browser put it.
  useEffect(() => {
    if (screensShown > 0) heading.current?.focus();
    screensShown += 1;
  }, []);

  return (
    <main className={className ? `screen ${className}` : 'screen'} aria-labelledby={headingId} data-step={step}>
      <div className="screen__body">
        <h1 id={headingId} ref={heading} tabIndex={-1} className="screen__title">
          {title}
        </h1>
        {children}
      </div>
      {actions ? <div className="action-bar">{actions}</div> : null}
    </main>
  );
}
