import { texts as common } from '../i18n/es-MX/common';

interface LoadingStateProps {
  label?: string;
  /** Show the label next to the spinner (it is always announced to screen readers). */
  showLabel?: boolean;
}

/** The shared loading state: a spinner with an accessible, politely announced label. */
export function LoadingState({ label = common.loading, showLabel = true }: LoadingStateProps) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className={showLabel ? 'loading__label' : 'visually-hidden'}>{label}</span>
    </div>
  );
}
