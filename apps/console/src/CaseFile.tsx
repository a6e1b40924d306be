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

/** One case: what was read, checked and decided, and the review form for the roles that may decide. */
export function CaseFile({ uuidTrx, grantorId, onBack, onReviewed, onSignedOut }: Props) {
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
          <h1>
            Expediente <code>{file.folio}</code>
          </h1>
          <p className="summary">
            <span className={`badge badge-${file.case.status.toLowerCase()}`}>{statusText(file.case)}</span>
            <span>{file.case.holderName ?? 'Sin nombre todavía'}</span>
            <span className="muted">Creado el {formatDate(file.case.createdAt)}</span>
          </p>

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

          <section aria-labelledby="score-title">
            <h2 id="score-title">Calificación</h2>
            <p>
              Semáforo: <span className={`badge badge-${file.score.flag.toLowerCase()}`}>{{ GREEN: 'Verde', YELLOW: 'Amarillo', RED: 'Rojo' }[file.score.flag]}</span>
            </p>
            <ul className="rules">
              {file.score.rules.map((r) => (
                <li key={r.rule}>
                  <strong>{r.summary}</strong> — {checkOutcomeLabels[r.outcome]}
                  {r.outcome !== 'passed' ? `, ${effectLabels[r.effect]}` : ''}
                  {r.detail && !r.detail.startsWith(r.summary) ? <span className="muted"> · {r.detail}</span> : null}
                </li>
              ))}
            </ul>
          </section>

          {file.images.length > 0 ? (
            <section aria-labelledby="images-title">
              <h2 id="images-title">Imágenes</h2>
              <div className="images">
                {file.images.map((which) => (
                  <figure key={which}>
                    <img src={api.imageUrl(uuidTrx, which, grantorId)} alt={imageLabels[which]} loading="lazy" />
                    <figcaption>{imageLabels[which]}</figcaption>
                  </figure>
                ))}
              </div>
            </section>
          ) : null}

          <section aria-labelledby="id-title">
            <h2 id="id-title">Identificación</h2>
            {file.idRead.length === 0 ? <p className="hint">No se leyó ninguna identificación.</p> : null}
            {file.idRead.map((side) => (
              <div key={side.side}>
                <h3>
                  {side.side === 'front' ? 'Frente' : 'Reverso'}
                  {side.documentType ? ` (${side.documentType})` : ''}
                </h3>
                <Fields rows={side.fields} />
              </div>
            ))}
            <h3>Datos confirmados por la persona</h3>
            {file.confirmed.length === 0 ? (
              <p className="hint">La persona no confirmó datos todavía.</p>
            ) : (
              <dl className="fields">
                {file.confirmed.map((f) => (
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

          <section aria-labelledby="checks-title">
            <h2 id="checks-title">Validaciones</h2>
            <ul className="rules">
              {file.checks.map((c) => (
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

          <section aria-labelledby="face-title">
            <h2 id="face-title">Rostro y prueba de vida</h2>
            {!file.face ? (
              <p className="hint">Sin video de rostro.</p>
            ) : (
              <dl className="fields">
                <div>
                  <dt>Coincidencia</dt>
                  <dd>{yesNo(file.face.match)}</dd>
                </div>
                <div>
                  <dt>Puntaje / umbral</dt>
                  <dd>
                    {file.face.score === null ? 'Sin puntaje' : file.face.score.toFixed(3)} / {file.face.threshold.toFixed(3)}
                  </dd>
                </div>
                <div>
                  <dt>Prueba de vida</dt>
                  <dd>
                    {file.face.liveness.passed ? 'Superada' : 'No superada'}
                    {file.face.liveness.spoof ? ' (posible suplantación)' : ''}
                  </dd>
                </div>
                <div>
                  <dt>Código hablado</dt>
                  <dd>
                    {file.face.spokenCode.verified === null ? 'No verificado' : file.face.spokenCode.verified ? 'Correcto' : 'Incorrecto'}
                    <span className="muted"> · {file.face.spokenCode.detail}</span>
                  </dd>
                </div>
              </dl>
            )}
          </section>

          <CaseMedia file={file} uuidTrx={uuidTrx} grantorId={grantorId} onSignedOut={onSignedOut} />

          <section aria-labelledby="proof-title">
            <h2 id="proof-title">Comprobante de domicilio</h2>
            {!file.proof ? (
              <p className="hint">Sin comprobante de domicilio.</p>
            ) : (
              <>
                <p>
                  {checkOutcomeLabels[file.proof.outcome]} · nombre coincide con la identificación: {yesNo(file.proof.nameMatchesId)} · vigente: {yesNo(file.proof.recent)}
                  {file.proof.detail ? <span className="muted"> · {file.proof.detail}</span> : null}
                </p>
                <Fields rows={file.proof.fields} />
              </>
            )}
          </section>

          <section aria-labelledby="consents-title">
            <h2 id="consents-title">Consentimientos</h2>
            {file.consents.length === 0 ? <p className="hint">Sin consentimientos registrados.</p> : null}
            <ul className="rules">
              {file.consents.map((c) => (
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

          <section aria-labelledby="timeline-title">
            <h2 id="timeline-title">Historial</h2>
            <ol className="timeline">
              {file.timeline.map((e, i) => (
                <li key={`${e.at}-${i}`}>
                  <time dateTime={e.at}>{formatDate(e.at)}</time> <span className="muted">{e.source}</span> <strong>{e.step}</strong>
                  {e.detail ? ` — ${e.detail}` : ''}
                </li>
              ))}
            </ol>
          </section>
        </>
      )}
    </main>
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
