import { captureCopy } from './captureCopy';
import { Screen } from './Screen';

/** A capture whose upload got no answer: the same shot can be sent again, or a new one taken. */
export function NetworkRetry({
  step,
  message = captureCopy.network.message,
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
  const copy = captureCopy.network;
  return (
    <Screen
      key="network"
      title={copy.title}
      step={step}
      actions={
        <>
          <button type="button" className="btn btn--primary" disabled={!canResend} onClick={onResend}>
            {copy.resend}
          </button>
          <button type="button" className="btn btn--secondary" onClick={onRetake}>
            {copy.retake}
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
