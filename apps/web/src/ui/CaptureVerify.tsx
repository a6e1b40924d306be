import { useState } from 'react';
import { captureCopy } from './captureCopy';
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
      title={captureCopy.verify.title}
      step={step}
      className="capture-verify"
      actions={
        <>
          <label className="checkbox">
            <input type="checkbox" checked={confirmed} disabled={saving} onChange={(event) => setConfirmed(event.target.checked)} />
            <span>{captureCopy.verify.confirm}</span>
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
            {captureCopy.verify.save}
          </button>
          <button type="button" className="btn btn--secondary" disabled={saving} onClick={onRetake}>
            {captureCopy.verify.retake}
          </button>
        </>
      }
    >
      <p>{captureCopy.verify.intro}</p>
      <img className="capture-preview" src={imageUrl} alt={imageAlt} />
    </Screen>
  );
}
