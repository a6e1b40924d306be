import { texts as capture } from '../i18n/es-MX/capture';
import { Screen } from './Screen';

/** A capture whose upload got no answer: the same shot can be sent again, or a new one taken. */
export function NetworkRetry({
  step,
  message = capture.network.message,
  canResend,
  onResend,
  onRetake,
}: {
  step: string;
  message?: string | null;
  canResend: boolean;
  onResend: () => void;
  onRetake: () => void;
}) {
  return (
    <Screen
      key="network"
      title={capture.network.title}
      step={step}
      actions={
        <>
          <button type="button" className="btn btn--primary" disabled={!canResend} onClick={onResend}>
            {capture.network.resend}
          </button>
          <button type="button" className="btn btn--secondary" onClick={onRetake}>
            {capture.network.retake}
          </button>
        </>
      }
    >
      <p className="notice__message" role="alert">
        {message}
      </p>
    </Screen>
  );
}
