import { cameraErrorNeedsPermission, type CameraErrorKind } from '../media/camera-select';
import { texts as capture } from '../i18n/es-MX/capture';
import { Screen } from './Screen';

/**
 * Spec §8 camera errors: "show the in-use overlay (camera used in another tab, or permission instructions;
 * reload on retry)". A refused permission gets the instructions; every other class the in-use text.
 */
export function CameraErrorNotice({ kind, step }: { kind: CameraErrorKind; step?: string }) {
  const permission = cameraErrorNeedsPermission(kind);
  return (
    <Screen
      title={capture.cameraError.title}
      step={step}
      className="camera-error"
      actions={
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
          {capture.cameraError.retry}
        </button>
      }
    >
      <div role="alert" data-camera-error={kind}>
        <p className="notice__message">{permission ? capture.cameraError.permission : capture.cameraError.inUse}</p>
        {permission ? (
          <ol className="camera-error__steps">
            {capture.cameraError.permissionSteps.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ol>
        ) : null}
      </div>
    </Screen>
  );
}
