import { api } from '../../api/calls';
import { ApiError, type UploadProgress } from '../../api/client';
import { currentPlatform, originOS, type OriginOS } from '../../media/platform';
import { xhrUpload } from '../../media/xhr-upload';
import type { IdSide, OcrRecord } from '../../session/idCapture';
import { readSession } from '../../session/session';

/**
 * Storage bucket named in the OCR call (docs/flow.md §9: "Storage bucket named from the production prefix"). The
 * project has no production prefix (docs/decisions.md: one deployment serves one environment), so the
 * bucket is the one fixed name for ID images.
 */
export const idImageBucket = 'identificaciones';

export interface OcrFormInput {
  uuidUser: string;
  side: IdSide;
  image: Blob;
  originOS: OriginOS;
}

/** The multipart body of docs/flow.md §7 "ocr (v2)": uuidUser, ine (image), side, bucket, originOS, SERVICE_ROTATE_IMAGE. */
export function ocrForm(input: OcrFormInput): FormData {
  const form = new FormData();
  form.append('uuidUser', input.uuidUser);
  form.append('side', input.side);
  form.append('bucket', idImageBucket);
  form.append('originOS', input.originOS);
  // The server may straighten a card photographed sideways or upside down.
  form.append('SERVICE_ROTATE_IMAGE', 'true');
  form.append('ine', input.image, `${input.side}.png`);
  return form;
}

/** What ocrDataOf reads: looser than the contract's answer, which the client does not validate. */
interface OcrEnvelope {
  status?: number;
  payload?: { ocrData?: unknown };
}

/** payload.ocrData when it is a record of text, number, boolean or null values. */
export function ocrDataOf(envelope: OcrEnvelope | null): OcrRecord {
  const data = envelope?.payload?.ocrData;
  if (typeof data === 'object' && data !== null && !Array.isArray(data) && Object.values(data).every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) {
    return data as OcrRecord;
  }
  throw new ApiError('ocr', envelope?.status ?? 200, 'the OCR answer has no ocrData record');
}

export interface ReadSideOptions {
  side: IdSide;
  image: Blob;
  signal: AbortSignal;
  onProgress: (progress: UploadProgress) => void;
  onUploaded: () => void;
}

/** POST /v2/ocr for one side; resolves with ocrData, rejects with the client's ApiError (already audited). */
export async function readIdSide(options: ReadSideOptions): Promise<OcrRecord> {
  const form = ocrForm({
    uuidUser: readSession().uuidUser ?? '',
    side: options.side,
    image: options.image,
    originOS: originOS(currentPlatform()),
  });
  const envelope = await api().postMultipart('ocr', form, {
    step: 'identificacion',
    signal: options.signal,
    onUploadProgress: options.onProgress,
    onUploaded: options.onUploaded,
    transport: xhrUpload,
  });
  return ocrDataOf(envelope);
}
