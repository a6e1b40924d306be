import { useState } from 'react';
import { texts as capture } from '../i18n/es-MX/capture';
import { Screen } from './Screen';
import './capture.css';

interface CaptureVerifyProps {
  imageUrl: string;
  imageAlt: string;
  onSave: () => void;
  onRetake: () => void;
  step?: string;
}

/** Verify step after the crop: the clarity checkbox; GUARDAR stays disabled until it is ticked (docs/flow.md §5). */
export function CaptureVerify({ imageUrl, imageAlt, onSave, onRetake, step }: CaptureVerifyProps) {
  const [confirmed, setConfirmed] = useState(false);
  const [saving, setSaving] = useState(false);
  return (
    <Screen
      title={capture.verify.title}
      step={step}
      className="capture-verify"
      actions={
        <>
          <label className="checkbox">
            <input type="checkbox" checked={confirmed} disabled={saving} onChange={(event) => setConfirmed(event.target.checked)} />
            <span>{capture.verify.confirm}</span>
          </label>
          <button
            type="button"
            className="btn btn--primary"
            disabled={!confirmed || saving}
            onClick={() => {
              setSaving(true);
              onSave();
            }}
          >
            {capture.verify.save}
          </button>
          <button type="button" className="btn btn--secondary" disabled={saving} onClick={onRetake}>
            {capture.verify.retake}
          </button>
        </>
      }
    >
      <p>{capture.verify.intro}</p>
      <img className="capture-preview" src={imageUrl} alt={imageAlt} />
    </Screen>
  );
}
