import { useEffect, useState, type FormEvent } from 'react';
import {
  consoleRedoChannelLabels,
  consoleRedoStepLabels,
  consoleRedoSteps,
  consoleReviewReasons,
  type ConsoleRedoChannel,
  type ConsoleRedoStep,
  type ConsoleReviewReason,
} from '@kyc/contracts/console-routes';
import type { ConsoleCaseFile, ConsoleDecision } from '@kyc/contracts';
import { api, ApiError } from './api';
import { CaseMedia } from './CaseMedia';
import { checkOutcomeLabels, consentLabels, decisionLabels, effectLabels, formatDate, imageLabels, reasonLabels, statusText } from './labels';

interface Props {
  uuidTrx: string;
  /** The grantor a platform operator is looking at. */
  grantorId: string | undefined;
  onBack(): void;
  onReviewed(): void;
  onSignedOut(notice?: string): void;
}

const yesNo = (value: boolean | null) => (value === null ? 'Sin dato' : value ? 'Sí' : 'No');

/** The case file of one transaction, loaded once per case and grantor; a 401 signs the user out. */
function useCaseFile(uuidTrx: string, grantorId: string | undefined, onSignedOut: (notice?: string) => void) {
  const [file, setFile] = useState<ConsoleCaseFile | undefined>();
  const [error, setError] = useState('');

  useEffect(() => {
    let current = true;
    api
      .caseFile(uuidTrx, grantorId)
      .then((f) => current && setFile(f))
      .catch((e) => {
        if (!current) return;
        if (e instanceof ApiError && e.status === 401) return onSignedOut(e.text);
        setError(e instanceof ApiError ? e.text : 'No pudimos cargar el expediente.');
      });
    return () => {
      current = false;
    };
  }, [uuidTrx, grantorId, onSignedOut]);

  return { file, setFile, error };
}

/** One case: what was read, checked and decided, and the review form for the roles that may decide. */
export function CaseFile({ uuidTrx, grantorId, onBack, onReviewed, onSignedOut }: Props) {
  const { file, setFile, error } = useCaseFile(uuidTrx, grantorId, onSignedOut);

  return (
    <main className="page case-file">
      <button type="button" className="secondary back" onClick={onBack}>
        ← Volver a la lista
      </button>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {!file ? (
        error ? null : (
          <p className="hint" aria-busy="true">
            Cargando expediente…
          </p>
        )
      ) : (
        <>
          <CaseHeader file={file} />

          <ReviewPanel
            // A new decision or redo starts the form afresh (a pending redo cannot be asked twice).
            key={`${file.case.status}:${file.redo?.at ?? ''}`}
            file={file}
            uuidTrx={uuidTrx}
            grantorId={grantorId}
            onSignedOut={onSignedOut}
            onReviewed={(f) => {
              setFile(f);
              onReviewed();
            }}
          />

          <ScoreSection score={file.score} />
          <ImagesSection images={file.images} uuidTrx={uuidTrx} grantorId={grantorId} />
          <IdSection idRead={file.idRead} confirmed={file.confirmed} />
          <ChecksSection checks={file.checks} />
          <FaceSection face={file.face} />
          <CaseMedia file={file} uuidTrx={uuidTrx} grantorId={grantorId} onSignedOut={onSignedOut} />
          <ProofSection proof={file.proof} />
          <ConsentsSection consents={file.consents} />
          <TimelineSection timeline={file.timeline} />
        </>
      )}
    </main>
  );
}

/** The folio, status, holder and creation date. */
function CaseHeader({ file }: { file: ConsoleCaseFile }) {
  return (
    <>
      <h1>
        Expediente <code>{file.folio}</code>
      </h1>
      <p className="summary">
        <span className={`badge badge-${file.case.status.toLowerCase()}`}>{statusText(file.case)}</span>
        <span>{file.case.holderName ?? 'Sin nombre todavía'}</span>
        <span className="muted">Creado el {formatDate(file.case.createdAt)}</span>
      </p>
    </>
  );
}

/** The traffic light and the rules that set it. */
function ScoreSection({ score }: { score: ConsoleCaseFile['score'] }) {
  return (
    <section aria-labelledby="score-title">
      <h2 id="score-title">Calificación</h2>
      <p>
        Semáforo: <span className={`badge badge-${score.flag.toLowerCase()}`}>{{ GREEN: 'Verde', YELLOW: 'Amarillo', RED: 'Rojo' }[score.flag]}</span>
      </p>
      <ul className="rules">
        {score.rules.map((r) => (
          <li key={r.rule}>
            <strong>{r.summary}</strong> — {checkOutcomeLabels[r.outcome]}
            {r.outcome !== 'passed' ? `, ${effectLabels[r.effect]}` : ''}
            {r.detail && !r.detail.startsWith(r.summary) ? <span className="muted"> · {r.detail}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The captured images (none: no section). */
function ImagesSection({ images, uuidTrx, grantorId }: { images: ConsoleCaseFile['images']; uuidTrx: string; grantorId: string | undefined }) {
  if (images.length === 0) return null;
  return (
    <section aria-labelledby="images-title">
      <h2 id="images-title">Imágenes</h2>
      <div className="images">
        {images.map((which) => (
          <figure key={which}>
            <img src={api.imageUrl(uuidTrx, which, grantorId)} alt={imageLabels[which]} loading="lazy" />
            <figcaption>{imageLabels[which]}</figcaption>
          </figure>
        ))}
      </div>
    </section>
  );
}

/** What was read from each side of the ID, and what the person confirmed. */
function IdSection({ idRead, confirmed }: Pick<ConsoleCaseFile, 'idRead' | 'confirmed'>) {
  return (
    <section aria-labelledby="id-title">
      <h2 id="id-title">Identificación</h2>
      {idRead.length === 0 ? <p className="hint">No se leyó ninguna identificación.</p> : null}
      {idRead.map((side) => (
        <div key={side.side}>
          <h3>
            {side.side === 'front' ? 'Frente' : 'Reverso'}
            {side.documentType ? ` (${side.documentType})` : ''}
          </h3>
          <Fields rows={side.fields} />
        </div>
      ))}
      <h3>Datos confirmados por la persona</h3>
      {confirmed.length === 0 ? (
        <p className="hint">La persona no confirmó datos todavía.</p>
      ) : (
        <dl className="fields">
          {confirmed.map((f) => (
            <div key={f.name}>
              <dt>{f.label}</dt>
              <dd>
                {f.value} {f.typed ? <span className="badge badge-typed">Escrito por la persona</span> : null}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

/** Each check with its outcome and the rules inside it. */
function ChecksSection({ checks }: { checks: ConsoleCaseFile['checks'] }) {
  return (
    <section aria-labelledby="checks-title">
      <h2 id="checks-title">Validaciones</h2>
      <ul className="rules">
        {checks.map((c) => (
          <li key={c.check}>
            <strong>{c.label}</strong> — {checkOutcomeLabels[c.outcome]}
            {c.detail ? <span className="muted"> · {c.detail}</span> : null}
            {c.items.length > 0 ? (
              <ul>
                {c.items.map((i) => (
                  <li key={i.rule}>
                    {i.passed ? '✓' : '✗'} {i.rule}
                    {i.detail ? <span className="muted"> · {i.detail}</span> : null}
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Face match, liveness and the spoken code. */
function FaceSection({ face }: { face: ConsoleCaseFile['face'] }) {
  return (
    <section aria-labelledby="face-title">
      <h2 id="face-title">Rostro y prueba de vida</h2>
      {!face ? (
        <p className="hint">Sin video de rostro.</p>
      ) : (
        <dl className="fields">
          <div>
            <dt>Coincidencia</dt>
            <dd>{yesNo(face.match)}</dd>
          </div>
          <div>
            <dt>Puntaje / umbral</dt>
            <dd>
              {face.score === null ? 'Sin puntaje' : face.score.toFixed(3)} / {face.threshold.toFixed(3)}
            </dd>
          </div>
          <div>
            <dt>Prueba de vida</dt>
            <dd>
              {face.liveness.passed ? 'Superada' : 'No superada'}
              {face.liveness.spoof ? ' (posible suplantación)' : ''}
            </dd>
          </div>
          <div>
            <dt>Código hablado</dt>
            <dd>
              {face.spokenCode.verified === null ? 'No verificado' : face.spokenCode.verified ? 'Correcto' : 'Incorrecto'}
              <span className="muted"> · {face.spokenCode.detail}</span>
            </dd>
          </div>
          {face.repeats ? (
            <div className="wide">
              <dt>Lectura repetida</dt>
              <dd className="error">
                La lectura del código repite la de un video ya aceptado para esta persona (transacción <code>{face.repeats}</code>): es una grabación reproducida.
              </dd>
            </div>
          ) : null}
        </dl>
      )}
    </section>
  );
}

/** The proof of address: outcome and fields read. */
function ProofSection({ proof }: { proof: ConsoleCaseFile['proof'] }) {
  return (
    <section aria-labelledby="proof-title">
      <h2 id="proof-title">Comprobante de domicilio</h2>
      {!proof ? (
        <p className="hint">Sin comprobante de domicilio.</p>
      ) : (
        <>
          <p>
            {checkOutcomeLabels[proof.outcome]} · nombre coincide con la identificación: {yesNo(proof.nameMatchesId)} · vigente: {yesNo(proof.recent)}
            {proof.detail ? <span className="muted"> · {proof.detail}</span> : null}
          </p>
          <Fields rows={proof.fields} />
        </>
      )}
    </section>
  );
}

/** The consents accepted, with the hash of each text. */
function ConsentsSection({ consents }: { consents: ConsoleCaseFile['consents'] }) {
  return (
    <section aria-labelledby="consents-title">
      <h2 id="consents-title">Consentimientos</h2>
      {consents.length === 0 ? <p className="hint">Sin consentimientos registrados.</p> : null}
      <ul className="rules">
        {consents.map((c) => (
          <li key={`${c.consent}-${c.acceptedAt}`}>
            <strong>{consentLabels[c.consent] ?? c.consent}</strong> — versión {c.version}, aceptado el {formatDate(c.acceptedAt)}
            <br />
            <span className="muted">
              SHA-256 del texto: <code className="hash">{c.sha256}</code>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The case's history, oldest first. */
function TimelineSection({ timeline }: { timeline: ConsoleCaseFile['timeline'] }) {
  return (
    <section aria-labelledby="timeline-title">
      <h2 id="timeline-title">Historial</h2>
      <ol className="timeline">
        {timeline.map((e, i) => (
          <li key={`${e.at}-${i}`}>
            <time dateTime={e.at}>{formatDate(e.at)}</time> <span className="muted">{e.source}</span> <strong>{e.step}</strong>
            {e.detail ? ` — ${e.detail}` : ''}
          </li>
        ))}
      </ol>
    </section>
  );
}

function Fields({ rows }: { rows: { name: string; label: string; value: string }[] }) {
  if (rows.length === 0) return <p className="hint">Sin datos leídos.</p>;
  return (
    <dl className="fields">
      {rows.map((f) => (
        <div key={f.name}>
          <dt>{f.label}</dt>
          <dd>{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}

interface ReviewProps {
  file: ConsoleCaseFile;
  uuidTrx: string;
  grantorId: string | undefined;
  onReviewed(file: ConsoleCaseFile): void;
  onSignedOut(notice?: string): void;
}

const decisionChoices: Record<ConsoleDecision, string> = { approve: 'Aprobar', reject: 'Rechazar', redo: 'Solicitar repetir un paso' };
const submitLabels: Record<ConsoleDecision, string> = { approve: 'Aprobar expediente', reject: 'Rechazar expediente', redo: 'Enviar enlace para repetir el paso' };
const redoStateLabels: Record<NonNullable<ConsoleCaseFile['redo']>['state'], string> = {
  pending: 'pendiente',
  completed: 'la persona ya lo envió',
  expired: 'el enlace venció sin usarse',
  cancelled: 'retirada por una decisión final',
};

/** The decision taken, if any. */
function ReviewDone({ review }: { review: NonNullable<ConsoleCaseFile['review']> }) {
  return (
    <section aria-labelledby="review-title" className="review done">
      <h2 id="review-title">Revisión</h2>
      <p>
        <strong>{decisionLabels[review.decision]}</strong> · {reasonLabels[review.reason as ConsoleReviewReason] ?? review.reason} · por {review.reviewer} el {formatDate(review.at)}
      </p>
      {review.note ? <p className="note">{review.note}</p> : null}
    </section>
  );
}

/** The newest redo asked for the case. */
function RedoSummary({ redo }: { redo: NonNullable<ConsoleCaseFile['redo']> }) {
  return (
    <div className="redo-summary">
      <p>
        <strong>Repetición solicitada</strong> ({redoStateLabels[redo.state]}): {consoleRedoStepLabels[redo.step]} · {reasonLabels[redo.reason as ConsoleReviewReason] ?? redo.reason} · por{' '}
        {redo.reviewer} el {formatDate(redo.at)} · enviada por {redo.channels.map((c) => consoleRedoChannelLabels[c]).join(' y ')}
        {redo.state === 'pending' ? ` · vence el ${formatDate(redo.expiresAt)}` : ''}
        {redo.completedAt ? ` · enviada de nuevo el ${formatDate(redo.completedAt)}` : ''}
      </p>
      {redo.note ? <p className="note">{redo.note}</p> : null}
    </div>
  );
}

interface RedoFieldsProps {
  available: readonly ConsoleRedoChannel[];
  step: ConsoleRedoStep;
  channels: readonly ConsoleRedoChannel[];
  onStep(step: ConsoleRedoStep): void;
  onChannels(channels: ConsoleRedoChannel[]): void;
}

/** The step to redo and where the link goes (only the channels the case has an address for). */
function RedoFields({ available, step, channels, onStep, onChannels }: RedoFieldsProps) {
  return (
    <>
      <div className="field">
        <label htmlFor="redo-step">Paso a repetir</label>
        <select id="redo-step" value={step} onChange={(e) => onStep(e.currentTarget.value as ConsoleRedoStep)}>
          {consoleRedoSteps.map((s) => (
            <option key={s} value={s}>
              {consoleRedoStepLabels[s]}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="decision">
        <legend>Enviar el enlace por</legend>
        {available.map((c) => (
          <label key={c} className="choice">
            <input
              type="checkbox"
              name="channels"
              value={c}
              checked={channels.includes(c)}
              onChange={(e) => onChannels(e.currentTarget.checked ? [...channels, c] : channels.filter((x) => x !== c))}
            />
            {consoleRedoChannelLabels[c]}
          </label>
        ))}
      </fieldset>
    </>
  );
}

/** The decision, or the form to take it (reviewers and admins, finished cases): approve, reject or ask to redo a step. */
function ReviewPanel({ file, uuidTrx, grantorId, onReviewed, onSignedOut }: ReviewProps) {
  const [decision, setDecision] = useState<ConsoleDecision>('approve');
  const [reason, setReason] = useState<ConsoleReviewReason>(consoleReviewReasons.approve[0]);
  const [note, setNote] = useState('');
  const [step, setStep] = useState<ConsoleRedoStep>(consoleRedoSteps[0]);
  const [channels, setChannels] = useState<ConsoleRedoChannel[]>([...file.redoChannels]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  if (file.review) return <ReviewDone review={file.review} />;
  const pending = file.redo?.state === 'pending';
  const finished = ['GREEN', 'YELLOW', 'RED', 'finished', 'redo_requested'].includes(file.case.status);
  if (!file.mayReview || !finished) return file.redo ? <RedoSummary redo={file.redo} /> : null;
  const mayRedo = !pending && file.redoChannels.length > 0;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (decision === 'redo' && channels.length === 0) return setError('Elige al menos un medio para enviar el enlace.');
    setBusy(true);
    setError('');
    try {
      const body = decision === 'redo' ? { decision, reason, note, step, channels } : { decision, reason, note };
      onReviewed(await api.review(uuidTrx, body, grantorId));
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return onSignedOut(e.text);
      setError(e instanceof ApiError ? e.text : 'No pudimos guardar la revisión.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="review-title" className="review">
      <h2 id="review-title">Revisión</h2>
      {file.redo ? <RedoSummary redo={file.redo} /> : null}
      <form onSubmit={submit}>
        <fieldset className="decision">
          <legend>Decisión</legend>
          {(['approve', 'reject', 'redo'] as const).map((d) => (
            <label key={d} className="choice">
              <input
                type="radio"
                name="decision"
                value={d}
                checked={decision === d}
                disabled={d === 'redo' && !mayRedo}
                onChange={() => {
                  setDecision(d);
                  setReason(consoleReviewReasons[d][0]);
                }}
              />
              {decisionChoices[d]}
            </label>
          ))}
        </fieldset>
        {!mayRedo && !pending ? <p className="hint">Para pedir que repita un paso, el expediente necesita un correo o un celular confirmado.</p> : null}
        {decision === 'redo' ? <RedoFields available={file.redoChannels} step={step} channels={channels} onStep={setStep} onChannels={setChannels} /> : null}
        <div className="field">
          <label htmlFor="reason">Motivo</label>
          <select id="reason" value={reason} onChange={(e) => setReason(e.currentTarget.value as ConsoleReviewReason)}>
            {consoleReviewReasons[decision].map((r) => (
              <option key={r} value={r}>
                {reasonLabels[r]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="note">Nota</label>
          <textarea id="note" rows={3} maxLength={2000} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
        </div>
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={busy}>
          {submitLabels[decision]}
        </button>
      </form>
    </section>
  );
}
